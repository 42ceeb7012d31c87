# mapfile and readarray.

### lines with and without their newline
printf 'a\nb\nc\n' | { mapfile arr; printf '[%s]' "${arr[@]}"; echo ${#arr[@]}; }
printf 'a\nb\nc' | { mapfile -t arr; printf '[%s]' "${arr[@]}"; echo ${#arr[@]}; }

### MAPFILE by default, readarray the same
printf 'a\nb\n' | { mapfile -t; printf '[%s]' "${MAPFILE[@]}"; echo; }
printf 'a\nb\n' | { readarray -t r; printf '[%s]' "${r[@]}"; echo; }

### -d another delimiter, and NUL
printf 'a:b:c' | { mapfile -t -d : arr; printf '[%s]' "${arr[@]}"; echo; }
printf 'a\0b\0c\0' | { mapfile -t -d '' arr; printf '[%s]' "${arr[@]}"; echo ${#arr[@]}; }
printf 'a\0b\0' | { mapfile -d '' arr; printf '%s' "${arr[@]}" | od -c; }

### -n count leaves the rest, -s skips
printf 'a\nb\nc\nd\ne\n' | { mapfile -t -n 2 arr; printf '[%s]' "${arr[@]}"; echo; cat; }
printf 'a\nb\nc\nd\ne\n' | { mapfile -t -s 2 arr; printf '[%s]' "${arr[@]}"; echo; }
printf 'a\nb\nc\nd\ne\n' | { mapfile -t -s 1 -n 2 arr; printf '[%s]' "${arr[@]}"; echo; }
seq 10 > f; { mapfile -t -n 3 arr; cat; } < f

### -O keeps the array and starts there; without it the array is emptied
arr=(x y z w)
printf 'a\nb\n' > f
mapfile -t -O 1 arr < f; printf '[%s]' "${arr[@]}"; echo
mapfile -t arr < f; printf '[%s]' "${arr[@]}"; echo

### -C callback every -c lines
printf 'a\nb\nc\nd\n' | { mapfile -t -C 'echo cb' -c 2 arr; printf '[%s]' "${arr[@]}"; echo; }

### empty input
mapfile -t arr < /dev/null; echo "${#arr[@]} $?"

### backslashes are kept
printf 'a\\b\n' | { mapfile -t arr; printf '[%s]\n' "${arr[0]}"; }

### a local array in a function
f() { local -a arr; mapfile -t arr; echo "in ${#arr[@]}"; }
printf 'a\nb\n' | f; echo "out ${#arr[@]}"

### usage errors
mapfile -t 1bad < /dev/null; echo st=$?
mapfile -z; echo st=$?
mapfile -n x arr < /dev/null; echo st=$?
mapfile -c 0 -C : arr < /dev/null; echo st=$?
