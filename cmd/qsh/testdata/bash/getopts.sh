# getopts.

### a loop over options and their arguments
set -- -a -b val -c file rest
while getopts 'ab:c' opt; do echo "$opt ${OPTARG-unset} $OPTIND"; done
shift $((OPTIND-1)); echo "rest: $*"

### grouped options and an argument in the same word
set -- -abval -c -bx
while getopts 'ab:c' opt; do echo "$opt ${OPTARG-unset} $OPTIND"; done

### an unknown option and a missing argument
set -- -x -b
while getopts 'ab:' opt 2>/dev/null; do echo "$opt ${OPTARG-unset} $OPTIND"; done

### silent errors with a leading colon
set -- -x -b
while getopts ':ab:' opt; do echo "$opt ${OPTARG-unset} $OPTIND"; done

### OPTERR=0 is quiet; the results are the same
OPTERR=0
set -- -x
getopts 'ab' opt 2>&1; echo "$opt ${OPTARG-unset}"

### -- and a non-option end the options
set -- -a -- -c
while getopts 'ac' opt; do echo "$opt $OPTIND"; done; echo "end $OPTIND"
OPTIND=1; set -- a -c
while getopts 'ac' opt; do echo "$opt $OPTIND"; done; echo "end $OPTIND $opt"
OPTIND=1; set -- - -a
getopts 'a' opt; echo "$? $opt $OPTIND"

### arguments given to getopts itself
while getopts 'ab:' opt -a -b x y; do echo "$opt ${OPTARG-} $OPTIND"; done; echo "end $OPTIND"

### in functions: OPTIND is global unless made local
f() { local OPTIND; while getopts a o; do echo "f $o"; done; }
f -a; f -a
g() { while getopts a o; do echo "g $o"; done; }
g -a; g -a; echo "OPTIND=$OPTIND"

### OPTIND out of range and not a number
OPTIND=5; set -- -a; getopts a o; echo "$? $o $OPTIND"
OPTIND=x; getopts a o; echo "$? $o $OPTIND"
OPTIND=0; getopts a o; echo "$? $o $OPTIND"

### OPTARG is unset after an option without one, and at the end
set -- -b v -a
OPTARG=before; getopts 'ab:' o; echo "$o ${OPTARG-unset}"
getopts 'ab:' o; echo "$o ${OPTARG-unset}"
getopts 'ab:' o; echo "$? $o ${OPTARG-unset}"

### usage errors
getopts; echo st=$?
getopts a; echo st=$?
getopts a 1bad -a; echo st=$?
