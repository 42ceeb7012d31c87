# hash: the table of programs found, used again without searching PATH.

### empty, filled by running a program, cleared by -r
hash
whoami > /dev/null
hash
hash -r
hash

### hash NAME, -t, -l, -d
hash ls; hash -t ls; hash -l; hash -d ls; hash
hash nosuch; echo st=$?
hash -t nosuch; echo st=$?
hash -d nosuch; echo st=$?
hash echo cd; hash; echo st=$?

### -p names a program for a name
hash -p /bin/echo foo
foo hi
hash -t foo

### a program found is run again from where it was found
mkdir a b
printf '#!/bin/sh\necho one\n' > b/prog; chmod +x b/prog
PATH=$PWD/b:$PATH
prog
cp b/prog a/prog; sed -i s/one/two/ a/prog
hash -p $PWD/b/prog prog
PATH2=$PWD/a:$PATH
prog
rm b/prog
prog; echo st=$?

### a new PATH empties the table
hash ls
PATH=$PATH:/nowhere
hash

### set +h stops remembering
set +h
whoami > /dev/null
hash

### bad flags
hash -z; echo st=$?
