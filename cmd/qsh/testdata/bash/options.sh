# set and shopt: every option bash has is known; those qsh cannot honour
# fail when turned on (see docs/COMPATIBILITY.md).

### set -o lists every option
set -o

### set +o prints commands
set -e -o pipefail
set +o

### set -o sets, +o unsets
set -o nounset -o pipefail
shopt -po nounset pipefail
set +o nounset
shopt -po nounset pipefail

### combined flags and -o in one word
set -euo pipefail
set +o | grep -E 'errexit|nounset|pipefail'

### options that only bash's editor and history use are kept
set -o emacs; echo $?
set -o history; echo $?
set -o notify; echo $?
set -b -h; echo $?
set +o | grep -E 'emacs|history|notify|hashall'

### set -- sets the positional parameters
set -- a 'b c'
echo $# "$2"
set --
echo $#

### set with words after options
set -e a b
echo $# $1 $2
set -o pipefail c
echo $# $1

### set - ends options, keeps parameters when none follow
set -- x y
set -
echo $#
set - p
echo $# $1

### set with a bad flag
set -Z
echo status=$?

### set -o with a bad name
set -o nosuch
echo status=$?

### set without arguments lists variables
__v1='a b'
__v2=plain
__v3=$'tab\there'
__v4="it's"
__v5=
__arr=(1 '2 3' 'q"x')
set | grep '^__'

### shopt lists its options
# interp's command substitutions always inherit set -e.
shopt | grep -v inherit_errexit

### shopt -p prints commands
shopt -s nullglob
shopt -p | grep -E 'nullglob|extglob|checkwinsize'

### shopt -s and -u
shopt -s extglob dotglob
shopt extglob dotglob
shopt -u dotglob
shopt -p dotglob extglob

### shopt status is 1 when an option asked about is off
shopt -q nullglob; echo $?
shopt -s nullglob
shopt -q nullglob; echo $?
shopt -q nullglob dotglob; echo $?
shopt nullglob dotglob; echo $?

### shopt -s lists options that are on, -u those off
shopt -s | head -3
shopt -u | head -3

### shopt with an unknown name
shopt -s nosuch; echo $?
shopt -q nosuch; echo $?
shopt -p nosuch nullglob; echo $?

### shopt -s -u together fail
shopt -su nullglob; echo $?

### shopt -o works on set's options
shopt -o -s errexit
shopt -po errexit
shopt -o -u errexit
shopt -po errexit
shopt -qo nounset; echo $?

### shopt -s a bad flag
shopt -x; echo $?

### options common in rc files are accepted
shopt -s checkwinsize histappend cmdhist cdspell dirspell no_empty_cmd_completion direxpand
echo $?
shopt -p checkwinsize histappend

### nullglob honoured
shopt -s nullglob
echo x *.none y

### dotglob honoured
touch .hidden shown
shopt -s dotglob
echo *

### noclobber refuses > on an existing file
set -C
echo one > f; echo $?
echo two > f; echo $?
echo three >> f; echo $?
cat f
echo four > /dev/null; echo $?
set +C
echo five > f; cat f

### options set in a subshell stay there
(set -o pipefail; shopt -s nullglob; shopt -po pipefail; shopt -p nullglob)
shopt -po pipefail; shopt -p nullglob

### options set in a function stay set
f() { set -o pipefail; }
f
shopt -po pipefail

### set -u works through qsh's set
set -u
echo ${nosuch-default}
(echo $nosuch) 2>/dev/null; echo status=$?
