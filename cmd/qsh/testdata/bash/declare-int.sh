# declare -i (local, typeset): bash's manual, "declare": the value given
# is evaluated as an arithmetic expression. (Later assignments are not, in
# qsh: docs/COMPATIBILITY.md.)

### the value given is computed
declare -i a=2*3+1
echo "$a"
typeset -i b=a*2
echo "$b"

### local -i keeps the variable local, the status captured as a number
n=outer
f() { local -i n="$?" m=10/3 k; echo "$n $m [$k]"; }
false; f
echo "$n"

### with other attributes
g() { local -ir r=7 x=r+1; echo "$r $x"; declare -ix e=5; env | grep '^e='; }
g

### quoted values and +=
declare -i y="2*3"; echo "$y"
declare -i x='1+2'; echo "$x"
x=5; declare -i x+=1; echo "$x"
