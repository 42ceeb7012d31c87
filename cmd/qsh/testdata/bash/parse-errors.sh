# A script or -c string with a syntax error runs as bash reads it: line by
# line, up to the error.

### lines before a syntax error run
echo before
echo )
echo after

### a syntax error inside a compound command runs nothing of it
echo a
if true; then
  echo in
  echo )
fi
echo b

### unclosed quote at the end
echo a
echo "unclosed

### exit before the error
echo 1
exit 3
echo )

### a bad substitution fails its line, then the rest runs
echo before
echo ${a&}
echo after

### a bad substitution on the last line
v=abcde
echo ${#v:1:3}

### status after a bad substitution
echo ${a&}
echo status=$?

### a bad name in export
echo before
export A-B=1
echo after

### a bad function name
echo before
f$x() { echo body; }
echo after

### a function name that is not one, with no body
foo$identity('z')
echo DONE

### an arithmetic syntax error fails its line
echo a
echo $((1+))
echo b

