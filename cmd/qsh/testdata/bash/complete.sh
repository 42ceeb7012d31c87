# Programmable completion's builtins: complete, compgen and compopt, as
# bash 5.2 has them. (Tab itself: complete_e2e_test.go and shell's
# progcomp_test.go.)

### compgen -W matches the word's prefix
compgen -W 'alpha beta bravo gamma' -- b
echo "st=$?"
compgen -W 'alpha beta' -- z
echo "st=$?"

### compgen -W splits at IFS and expands each word
IFS=':%'
compgen -W 'spam:eggs%ham cheese\:colon'
IFS=$' \t\n'
x=value
compgen -W '$x "two words" ${x}s {a,b}c ~ * $(echo sub st)'

### compgen -W evaluates command substitutions and splits them with IFS
IFS=':'
compgen -W '$(echo "a:b:c d")'

### compgen -W with a syntax error fails
compgen -W '${' 2>/dev/null
echo "st=$?"

### compgen -f and -d list files and directories
touch a1 a2 'sp ace' .hid b3
mkdir d1 d2 .hd
compgen -f | sort
echo --
compgen -d | sort
echo --
compgen -f a | sort
echo --
compgen -f . | sort
echo --
compgen -f d1/ ; echo "st=$?"
compgen -f /nonexistent/ ; echo "st=$?"

### compgen -f and -d under a directory and ~
mkdir -p sub/in; touch sub/x sub/.y
compgen -f sub/ | sort
HOME=$PWD/sub compgen -f '~/' | sort
HOME=$PWD compgen -d '~/s'

### compgen -G is not filtered by the word
touch f1.c f2.c f3.h
compgen -G '*.c' | sort
compgen -G '*.c' zzz | sort

### compgen -X removes matches, ! keeps them, & is the word
compgen -X '*1' -W 'a1 a2 b1 b2'
echo --
compgen -X '!a*' -W 'a1 a2 b1 b2'
echo --
compgen -X '&*' -W 'ab abc xab' -- ab
echo --
compgen -X '\&*' -W '&x ab' 
echo --
shopt -s extglob
compgen -X '@(a1|b?)' -W 'a1 a2 b1 c1'
echo --
compgen -X '!*.@(py|sh)' -W 'x.py y.sh z.c'

### compgen -P and -S wrap every match
compgen -P '<' -S '>' -W 'one two'
compgen -A shopt -P '[' -S ']' nu

### compgen -v, -e, -A arrayvar, -A function, -a
aa_one=1 aa_two=2
export aa_exp=3
aa_arr=(x y)
declare -A aa_map=([k]=v)
aa_f() { :; }
aa_g() { :; }
alias aa_al='echo'
compgen -v aa_
echo --
compgen -e aa_
echo --
compgen -A arrayvar aa_
echo --
compgen -A function aa_
echo --
compgen -a aa_
echo --
f() { local aa_local=1; compgen -v aa_l; }
f

### compgen -A lists of names bash knows
compgen -A setopt
compgen -A shopt
compgen -A signal
compgen -k | sort
compgen -b | sort
compgen -A helptopic

### compgen -c lists aliases, keywords, functions, builtins and programs
alias zz_alias=true
zz_func() { :; }
compgen -c zz_
compgen -c whil
compgen -c ech | sort -u

### compgen -u and -g list users and groups
compgen -u root
compgen -g root

### compgen -o options: plusdirs, dirnames, default; filenames and nospace change nothing
mkdir b1dir b2dir; touch bfile
compgen -o plusdirs -W 'b1 b2' b | sort
echo --
compgen -o dirnames b | sort
echo --
compgen -o default b | sort
echo --
compgen -o filenames -o nospace -W 'bin build'

### compgen -F calls the function with empty COMP_ variables
f() {
  echo "args: $*|$#"
  echo "words: ${#COMP_WORDS[@]} cword: $COMP_CWORD line: '$COMP_LINE' point: $COMP_POINT"
  COMPREPLY=(one two "$2x")
}
compgen -F f foo a b
echo "st=$?"
echo "after: ${COMPREPLY-unset} ${COMP_WORDS-unset}"

### compgen -F with a scalar COMPREPLY, and -X on its matches
f() { COMPREPLY=hello; }
compgen -F f
g() { COMPREPLY=(one two three); }
compgen -X two -F g

### compgen -C runs a command and takes its lines
f() { echo foo; echo "bar $1"; }
compgen -C f b
echo "st=$?"

### complete prints and removes compspecs
complete -W 'foo bar' -o nospace c1
complete -F fn -A function -P pre c2 c3
complete -p
echo --
complete -p c2
complete -r c2
complete -p c2; echo "st=$?"
complete -r nosuch; echo "st=$?"
complete -r
complete -p; echo "st=$?"

### complete -p prints every option in bash's order
complete -W 'w' -o nospace -o filenames -A function -P pre -S suf -X '!*.x' -G '*.c' -F fn -C 'cm d' -bcdefgjksuva cmd
complete -p cmd
complete -A hostname -A signal -A arrayvar -A binding -A disabled -A enabled -A helptopic -A running -A stopped -A setopt -A shopt -A service -A group -A user -A export -A keyword -A file -A directory -A command -A builtin -A alias -A job -A variable -A function cmd
complete -p cmd
complete -o bashdefault -o default -o dirnames -o noquote -o nosort -o plusdirs cmd
complete -p cmd
complete -W "it's" q
complete -p q

### complete -D, -E and -I
complete -D -F dflt
complete -E -W e
complete -I -W i
complete -p -D -E -I
complete -r -D
complete -p -D; echo "st=$?"

### usage errors have status 2
complete -F 2>/dev/null; echo "st=$?"
complete -z 2>/dev/null; echo "st=$?"
complete -o nosuch x 2>/dev/null; echo "st=$?"
compgen -A nosuch 2>/dev/null; echo "st=$?"
compgen -z 2>/dev/null; echo "st=$?"
complete -F f 2>/dev/null; echo "st=$?"
complete foo; echo "st=$?"
complete -p foo

### compopt outside a completion function, and on compspecs
compopt -o nospace 2>/dev/null; echo "st=$?"
compopt -o nospace nosuch 2>/dev/null; echo "st=$?"
compopt -o invalid 2>/dev/null; echo "st=$?"
complete -W x q
compopt -o nospace -o filenames q
complete -p q
compopt q
compopt +o nospace q
compopt q

### compopt in a function changes the options of that completion only
f() { compopt -o nospace; compopt; COMPREPLY=(x); }
complete -F f q
compgen -F f
complete -p q
