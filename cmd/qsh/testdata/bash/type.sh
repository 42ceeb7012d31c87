# type, command -v/-V, builtin, and the declaration builtins reached as
# commands.

### type of each kind
f() { echo x; }
mkdir bin; printf '#!/bin/sh\n' > bin/tool; chmod +x bin/tool
PATH=$PWD/bin:$PATH
type f echo for tool
echo status=$?

### type -t
f() { :; }
shopt -s expand_aliases; alias ll='ls -l'
type -t ll f echo for ls nosuch
echo status=$?

### type of an alias needs expand_aliases
alias ll='ls -l'
type ll; echo status=$?
shopt -s expand_aliases
type ll; echo status=$?

### type -p and -P
mkdir bin; printf '#!/bin/sh\n' > bin/echo; chmod +x bin/echo
PATH=bin:/usr/bin:/bin
type -p echo cd; echo status=$?
type -P echo; echo status=$?
type -P cd; echo status=$?

### type -a lists every kind
mkdir bin; printf '#!/bin/sh\n' > bin/pwd; chmod +x bin/pwd
PATH=/bin:bin
pwd() { :; }
type -a pwd | grep -v '^ \|^{\|^}'
echo ---
type -ap pwd
echo ---
type -af pwd

### type of a relative PATH entry keeps it relative
mkdir _tmp; printf '#!/bin/sh\n' > _tmp/date; chmod +x _tmp/date
PATH=_tmp:$PATH
type date
command -v date

### type -t finds a file that cannot be run, as bash does
mkdir d; touch d/plain
PATH=$PWD/d:$PATH
type -t plain
command -v plain >/dev/null; echo status=$?
type -a plain; echo status=$?

### type of a missing name, and a bad flag
type nosuch; echo status=$?
type -z ls; echo status=$?

### type prints a function
f() { echo one; echo two; }
type f

### command -v and -V
f() { :; }
shopt -s expand_aliases; alias ll='ls -l'
command -v ll f echo for ls
echo status=$?
command -v nosuch; echo status=$?
command -v nosuch echo; echo status=$?
command -V ll echo for
command -V nosuch; echo status=$?

### command -p finds programs in the default PATH only
mkdir bin; printf 'echo mine\n' > bin/hello; chmod +x bin/hello
PATH=$PWD/bin
command -p hello; echo status=$?
command -p ls / >/dev/null; echo status=$?

### command skips functions
echo() { printf 'function\n'; }
echo a
command echo b
builtin echo c

### builtin usage
builtin; echo status=$?
builtin --; echo status=$?
builtin -- false; echo status=$?
builtin nosuch; echo status=$?

### declaration builtins as commands
builtin export a=1; echo a=$a
command readonly b=2; echo b=$b
builtin command export c=3; echo c=$c
command builtin typeset d=4; echo d=$d
cmd=export; $cmd e=5; echo e=$e
f() { builtin local g=6; echo g=$g; }; f; echo "g=$g"
sh -c 'echo a=$a'

### a declaration command keeps words whole
v='x y'
builtin export w=$v
echo "$w"

### type prints compound commands as bash lays them out
f() {
  if [[ -n $1 ]]; then echo y; elif false; then echo z; else echo w; fi
  for i in 1 2; do echo $i; done
  for ((i=0;i<2;i++)); do echo $i; done
  while false; do :; done; until true; do :; done
  case $1 in a) echo a;; b|c) echo b; echo c;; *) ;; esac
  { echo g; }; (echo s; echo t)
  (( x++ )); [[ -n $x ]] && echo ok || echo no
  echo a | cat; x=1 y=2; local z=3
  sleep 0 & echo $!
  echo >/dev/null 2>&1
  g() { echo inner; }
}
type f
command -V f
