# The DEBUG trap. Cases leave out what qsh does not do as bash:
# $BASH_COMMAND (qsh's is the command expanded), assignments alone (no
# trap in qsh) and ( … ) in a script (a trap there in qsh).

### the trap runs before each command with $? before it, which the command gets back
f() { echo "in f $?"; echo f2; }
trap 'echo "T st=$?"; true' DEBUG
false
f
false
echo "after $?"
echo "x=$(echo cs)"

### not inside functions, nor in command substitutions
g() { echo g1; echo g2; return 3; }
trap 'echo T' DEBUG
g; echo "g=$?"
echo "$(echo a; echo b)"

### trap -p and trap - DEBUG
trap 'echo "T[$?]"' DEBUG
trap -p DEBUG
trap - DEBUG
trap -p DEBUG
echo done

### set -e stops at the command that fails, not before
trap 'true' DEBUG
set -e
false || echo or
false
echo not-reached

### a pipeline runs the trap before each command
trap 'echo T >&2' DEBUG
echo a | cat
echo b
