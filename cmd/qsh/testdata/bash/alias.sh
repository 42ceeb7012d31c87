# alias and unalias. (bash expands aliases as it reads a line, qsh as the
# command runs: an alias is used here on a line after the one that makes it.)

### define, list, print one
shopt -s expand_aliases
alias ll='ls -l' x=y
alias
alias ll
alias -p
alias -- ll

### values are shown in single quotes, a quote as '\''
shopt -s expand_aliases
alias q="echo \"it's\""
alias q
alias e=
alias e

### an alias is used on a later line
shopt -s expand_aliases
alias hi='echo hello'
hi there

### a blank at the end of the value makes the next word an alias too
shopt -s expand_aliases
alias s='sudo_like '
alias w='echo word'
sudo_like() { "$@"; }
s w

### unalias, -a, and names that are not there
shopt -s expand_aliases
alias a=1 b=2 c=3
unalias a; alias
unalias -a; alias; echo st=$?
unalias nosuch; echo st=$?
alias nosuch; echo st=$?

### bad names and flags
alias 'a b=c'; echo st=$?
alias 'a/b=c'; echo st=$?
alias 'a;b=c'; echo st=$?
alias '.=echo dot' '..=cd ..' 'a-b=x' '%x=y'; echo st=$?
alias -x; echo st=$?
unalias -x a; echo st=$?
unalias; echo st=$?

### type and command -v know aliases
shopt -s expand_aliases
alias ll='ls -l'
type ll
command -v ll
