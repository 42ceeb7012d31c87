# read: flags, backslashes, IFS splitting, status.

### a line into REPLY keeps its white space
printf '  a  b  \n' | { read; printf '[%s]\n' "$REPLY"; }

### names split on IFS, the last gets the rest
printf ' a  b   c d  \n' | { read x y z; printf '[%s][%s][%s]\n' "$x" "$y" "$z"; }
printf 'a\n' | { read x y z; printf '[%s][%s][%s]\n' "$x" "$y" "$z"; }

### backslashes escape and join lines; -r keeps them
printf 'a\\ b c\\\nd e\n' | { read x y; printf '[%s][%s]\n' "$x" "$y"; }
printf 'a\\ b c\\\nd e\n' | { read -r x y; printf '[%s][%s]\n' "$x" "$y"; }
printf '\\a\\t\\x41\n' | { read x; printf '[%s]\n' "$x"; }

### splitting with IFS of other characters
for line in 'a:b:' 'a:b::' 'a:b:c:' ':a' 'a::b' ' a : b : ' 'a: ' 'a:b: '; do
  printf '%s\n' "$line" | { IFS=': ' read x y; printf '<%s><%s> ' "$x" "$y"; }
  printf '%s\n' "$line" | { IFS=': ' read x; printf '<%s> ' "$x"; }
  printf '%s\n' "$line" | { IFS=: read x y; printf '<%s><%s> ' "$x" "$y"; }
  printf '%s\n' "$line" | { IFS=: read -a a; printf '%s:' "${#a[@]}"; printf '<%s>' "${a[@]}"; }
  echo
done

### an escaped IFS character does not split
printf 'a\\:b:c\n' | { IFS=: read x y; printf '[%s][%s]\n' "$x" "$y"; }

### IFS empty: no splitting, no trimming
printf '  a b  \n' | { IFS= read x y; printf '[%s][%s]\n' "$x" "$y"; }

### -a reads into an array
printf 'a b c\\ d\n' | { read -a arr; printf '%s|' "${arr[@]}"; echo ${#arr[@]}; }
printf 'a b c\\ d\n' | { read -r -a arr; printf '%s|' "${arr[@]}"; echo ${#arr[@]}; }

### -d reads up to another delimiter
printf 'a,b,c:d,e,f:g' | { IFS=, read -d : x; echo "x=$x"; read -d : x y; echo "x=$x y=$y"; read -d : x; echo "x=$x st=$?"; }
printf 'one\0two\0' | { read -d '' x; echo "$x"; read -d '' x; echo "$x"; read -d '' x; echo "st=$?"; }
printf 'a\nb\n' | { read -rd '' x; printf '[%s] %s\n' "$x" $?; }

### -n stops after N characters or at the delimiter
echo 12345 | { read -n 3 x; echo "$x"; read x; echo "$x"; }
echo ab | { read -n 5 x; echo "[$x] $?"; }
printf 'héllo\n' | { read -n 3 x; echo "$x"; }
echo '  a b  ' | (read -n 4; echo "[$REPLY]")
echo '  a b  ' | (read -n 4 v; echo "[$v]")
echo 'ab\cd' | (read -n 3; echo "[$REPLY]")
echo x | (read -n 0; echo "[$REPLY] $?")

### -N reads exactly N characters, delimiters and all, unsplit
printf 'a b\nc d\n' | { read -N 6 x y; printf '[%s][%s]\n' "$x" "$y"; }
printf 'ab' | { read -N 5 x; echo "[$x] $?"; }
echo foobar | { read -n 5 -d b; echo $REPLY; }
echo foobar | { read -N 5 -d b; echo $REPLY; }

### EOF before the delimiter: status 1, the variable set
printf 'partial' | { read x; echo "[$x] $?"; }
read x < /dev/null; echo "[$x] $?"
printf 'ab\\' | { read x; echo "[$x] $?"; }

### leftover input stays for the next command
printf 'one\ntwo\nthree\n' | { read a; read b; cat; echo "$a $b"; }

### a while read loop
printf '1 a\n2 b\n3 c' | while read n l; do echo "$l$n"; done

### read -t 0 tells whether input is there
read -t 0 < /dev/null; echo $?
echo x > f; read -t 0 < f; echo "$? [$REPLY]"

### read -t times out with status 142
{ sleep 3; echo late; } | { read -t 0.2 x; echo "st=$? [$x]"; }

### read -t keeps partial input
{ printf 'par'; sleep 3; } | { read -t 0.3 x; echo "st=$? [$x]"; }

### read -p prints nothing when input is no terminal; -s and -e are accepted
echo hi | { read -p 'prompt> ' x; echo "$x"; }
echo hi | { read -s x; echo "$x"; }
echo hi | { read -e -i init x; echo "$x"; }

### -u 0 and combined flags
echo hello | { read -u 0 x; echo $x; }
echo hello | { read -rn2 x; echo $x; }
printf 'a:b' | { read -rd: x; echo $x; }

### usage errors
read -z; echo st=$?
read -n; echo st=$?
read -n abc x; echo st=$?
read -t abc x; echo st=$?
read -u abc x; echo st=$?
echo x | { read 1bad; echo st=$?; }
echo x | { readonly r; read r; echo st=$?; }

### read sets variables in the caller's scope, and locals
f() { read v; }
f <<< global; echo "[$v]"
g() { local w; read w; echo "in [$w]"; }
g <<< local; echo "out [$w]"

### read from a directory fails
mkdir d
read x < d; echo st=$?
