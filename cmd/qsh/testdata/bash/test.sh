# test and [: by the number of arguments, as POSIX and bash's manual say.

### zero, one and two arguments
t() { test "$@"; echo "$#:$?"; }
t; t ''; t x; t -n; t -z; t '!'; t '('; t ']'; t '='
t ! ''; t ! x; t -n ''; t -z ''; t -z x; t -f; t -q x; t x y

### three arguments: binary first, then !, then ( )
t() { test "$@"; echo "$?"; }
t a = a; t a = b; t a != b; t a == a; t '!' = '!'; t '(' = ')'
t ! -z x; t ! -n x; t '(' x ')'; t '(' '' ')'
t x -a y; t '' -a y; t '' -o y; t '' -o ''
t a b c

### four arguments
t() { test "$@"; echo "$?"; }
t ! a = a; t ! a = b; t '(' -n x ')'; t '(' -z x ')'; t a b c d

### more: -a binds tighter than -o, ( ) and ! nest
t() { test "$@"; echo "$?"; }
t x -o '' -a ''
t '' -a x -o x
t ! '' -a x
t '(' x -o '' ')' -a ''
t 0 -eq 0 -a '(' = ')'
t ! '(' x = y ')'
t x = x -a '(' 1 -lt 2 -o 3 -gt 4 ')'

### integers: decimal, with white space, errors are status 2
t() { test "$@"; echo "$?"; }
t 10 -gt 9; t 010 -eq 10; t ' 5 ' -eq 5; t -5 -lt 0; t 3 -ge 3; t 3 -le 2; t 3 -ne 4
t 0x10 -eq 16; t a -eq b; t 1+2 -eq 3; t '' -eq 0
t 99999999999999999999 -gt 1

### string comparisons are by bytes
t() { test "$@"; echo "$?"; }
t a '<' b; t b '<' a; t B '<' a; t abc '>' abd; t '' '<' a

### file tests
mkdir d; touch f; printf x > s; ln -s f l; ln -s nowhere dangling; mkfifo p; chmod 600 f
t() { test "$@"; echo "$1 $2: $?"; }
t -e f; t -e nope; t -a f; t -f f; t -f d; t -d d; t -d f
t -s s; t -s f; t -h l; t -L l; t -L f; t -h dangling; t -e dangling
t -p p; t -f p; t -c /dev/null; t -b /dev/null; t -S /dev/null
t -r f; t -w f; t -O f; t -G f; t -u f; t -g f; t -k f; t -k /tmp
t -e ''; t -f ''

### -x, and -nt -ot -ef
touch -d '2000-01-01' old; touch new; touch x; chmod +x x; ln new hard
t() { test "$@"; echo "$*: $?"; }
t -x x; t -x new
t new -nt old; t old -nt new; t old -ot new; t new -nt nope; t nope -ot new; t nope -nt new
t new -ef hard; t new -ef old; t new -ef nope

### -v and -o
t() { test "$@"; echo "$*: $?"; }
v=1; e=; arr=(a b); declare -A m=([k]=v)
t -v v; t -v e; t -v nope; t -v arr; t -v 'arr[1]'; t -v 'arr[5]'; t -v 'm[k]'; t -v 'm[x]'
set -o pipefail
t -o pipefail; t -o errexit; t -o nosuch

### -t
test -t 0; echo "stdin: $?"
test -t 1 > f; echo "file: $?"
[ -t invalid ]; echo "invalid: $?"

### [ needs its ]
[ x ]; echo $?
[ x; echo $?
[ ]; echo $?
[ ] ]; echo $?
[ -n ]; echo $?
[ a = a ] ]; echo $?

### operators as operands
t() { test "$@"; echo "$*: $?"; }
t -f = -f; t -z '>'; t -n '-a'; t -a = -a; t '(' '(' ')' ')'
t ']' = ']'; t = = =
