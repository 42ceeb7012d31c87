# declare -f and -F, typeset -f: bash's manual, "declare": -f restricts to
# functions, -F to their names and attributes; a name that is no function
# makes the status non-zero.

### names alone
f() { echo hi; }
g() { x=$(date | tr a b); }
declare -F f g; echo "st:$?"
declare -F nope; echo "st:$?"

### all names, sorted
zz() { :; }; aa() { :; }; mm() { :; }
declare -F

### definitions
f() { if true; then echo a; fi; }
declare -f f
typeset -f f; echo "st:$?"

### all definitions
b() { echo b; }; a() { local x=1; echo "$x"; }
declare -f

### the idiom of rc files: is it defined?
if declare -F __git_ps1 >/dev/null; then echo yes; else echo no; fi
__git_ps1() { :; }
declare -F __git_ps1 &>/dev/null && echo now

### copy a function under a new name
orig() { echo "orig $1"; }
eval "$(declare -f orig | sed '1s/orig/copy/')"
copy arg

### flags in two words, and through builtin and eval
f() { :; }
declare -f -F f
builtin declare -F f
eval 'typeset -F f'

### a subshell's own functions, and one it unset
f() { :; }
( g() { :; }; declare -F g; unset -f f; declare -F f; echo "st:$?" )
declare -F f g; echo "st:$?"

### in a background statement
h() { :; }
{ declare -F; declare -F h; } & wait
