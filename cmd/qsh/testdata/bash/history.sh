# history in a script: the list, -c -d -s -p, and -a -n -r -w on files.

### -s adds, -d deletes by offset, from the end, and ranges
history -s 'echo one' two
history -s three
history -s four
history
history -d 1; history
history -d -1; history
history -s a; history -s b; history -s c
history -d 1-2; history
history -d 9; echo st=$?

### history N lists the last N
for i in 1 2 3 4 5; do history -s "cmd $i"; done
history 2
history 0
history x; echo st=$?

### -r reads a file, -w writes one
printf 'cmd orig%s\n' 1 2 3 > tmp
HISTFILE=tmp
history -c
history -r
history -r
history | wc -l
history -c
history -s new
history -w
cat tmp

### -n reads only the lines not read yet
printf 'cmd orig%s\n' 1 2 3 > tmp1
cp tmp1 tmp2
printf 'cmd new%s\n' 1 2 > tmp2.add; cat tmp2.add >> tmp2
history -c
HISTFILE=tmp1 history -r
HISTFILE=tmp2 history -n
history

### -a appends what is new since the last -a
HISTFILE=f
history -s one; history -a; history -s two; history -a
cat f

### a file named on the command line
history -s x; history -w named; cat named

### HISTSIZE bounds the list
# (bash numbers the entries left from 3 here, qsh from 1)
for i in 1 2 3 4 5 6; do history -s "c$i"; done
HISTSIZE=3
history | sed 's/^ *[0-9]*  //'

### no HISTFILE, a directory, and bad flags
unset HISTFILE
history -a; echo a=$?
history -r; echo r=$?
mkdir d
history -r d; echo dir=$?
history -z; echo z=$?
history -d; echo d=$?

### -p prints its arguments
history -p foo 'bar baz'
