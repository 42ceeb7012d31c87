# ${!name[@]} and ${!name[*]}: bash's manual, "Arrays": the indices of an
# array, nothing for an unset one — the idiom ${a[@]+"${!a[@]}"} guards
# arrays that may be unset under set -u (liquidprompt, bash-preexec).

### keys of indexed, sparse and associative arrays
a=(x y z); unset 'a[1]'
echo "${!a[@]}" "${!a[*]}"
declare -A m=([k]=1)
echo "${!m[@]}"

### keys of an unset array are nothing
unset u
echo "[${!u[@]}]" "[${!u[*]}]"
for i in ${u[@]+"${!u[@]}"}; do echo "never $i"; done
echo after

### the guard under set -u
set -u
hooks=(one two)
for i in ${hooks[@]+"${!hooks[@]}"}; do echo "$i ${hooks[i]}"; done
unset hooks
for i in ${hooks[@]+"${!hooks[@]}"}; do echo "never $i"; done
echo done

### in a function, a loop condition and a substitution
f() { local -a l=(p q r); local n=0; while (( n < ${#l[@]} )); do n=$((n+1)); done; echo "$n $(echo ${!l[@]})"; }
f
