# trap: signals whose traps run, ignored signals, EXIT, RETURN, ERR,
# listing; kill -l.

### trap lists traps as trap takes them back, in bash's order
trap 'echo a' USR1 TERM
trap '' HUP
trap 'echo e' EXIT
trap 'echo err' ERR
trap
echo ---
trap -p USR1 EXIT
echo ---
trap -p TERM INT

### trap - and a number first reset
trap 'echo a' USR1 INT
trap - USR1
trap 2 INT
trap -p USR1 INT; echo st=$?
trap 'echo one' 10
trap -p SIGUSR1
trap -- - EXIT
trap -p EXIT

### a signal's trap runs before the next command
trap 'echo got $?' USR1
kill -USR1 $$
echo after
(exit 3)
kill -USR1 $$
echo "st=$?"

### a trapped TERM does not end the shell; reset, it does
trap 'echo term' TERM
kill $$
echo alive
trap - TERM
kill -TERM $$
echo not-here

### an ignored signal does nothing, in programs too
trap '' TERM INT
kill $$
echo ignored
sh -c 'kill -INT $$; echo child-alive'
trap - TERM
kill $$
echo not-here

### kill -0 and a trap on a signal sent by another process
trap 'echo usr2' USR2
sh -c "kill -USR2 $$"
: wait for the signal
i=0; while [ $i -lt 50 ]; do i=$((i+1)); sleep 0.02; done
echo end

### EXIT runs at the end, after an error too, with the exit status
trap 'echo "exit trap $?"' EXIT
echo body
(exit 4)

### exit in an EXIT trap sets the status
trap 'exit 7' EXIT
true

### a trap given by number and by SIG name
trap 'echo one' 1
trap 'echo two' SIGINT
trap -p HUP INT

### invalid signals and options
trap 'x' 999; echo st=$?
trap 'y' NOPE; echo st=$?
trap -z; echo st=$?
trap -p NOPE; echo st=$?

### RETURN after a sourced file, and after functions under set -T
echo 'echo in-file' > f.sh
f() { return 4; }
trap 'echo returned' RETURN
f; echo "f=$?"
. ./f.sh; echo "src=$?"
set -T
f; echo "f=$?"

### ERR runs after a failing command
trap 'echo err' ERR
false
true
echo done

### kill -l lists signals as bash does
kill -l
kill -l 0 INT 9 64 130 RTMIN+2 SIGRTMAX-1 EXIT
kill -l 99; echo st=$?
trap -l | head -3
