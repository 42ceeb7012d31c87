# times: two lines, the shell's and its programs' user and system time.

### the shape of times's lines
times | grep -cE '^[0-9]+m[0-9]+\.[0-9]{3}s [0-9]+m[0-9]+\.[0-9]{3}s$'
times extra >/dev/null; echo st=$?
