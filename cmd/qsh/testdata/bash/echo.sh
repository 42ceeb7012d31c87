# echo: -n -e -E and their combinations, escapes, xpg_echo.

### plain
echo a  b "c  d"
echo
echo -n no-newline; echo

### flags combine and only n, e, E make flags
echo -ne 'x\ty\n'
echo -en 'x\n'
echo -nn a; echo
echo -ee 'a\tb'
echo -eE 'a\tb'
echo -Ee 'a\tb'
echo -z a
echo -- a
echo - a
echo -n -e 'a\n' -n

### escapes with -e
echo -e 'a\tb\nc\\d\ae\bf\fg\rh\vi\ej' | od -c
echo -e '\x41\x4a\x4\x' | od -c
echo -e '\0101\01\0\0777' | od -c
echo -e '\101 \1234'
echo -e '\u00e9\U0001F600\u'
echo -e 'a\qb\"c'

### \c stops all output
echo -e 'abc\cdef' ghi; echo after
echo -e a 'b\c' c; echo after

### -E turns escapes off
echo -E 'a\tb'
echo 'a\tb'

### xpg_echo makes escapes the default
shopt -s xpg_echo
echo 'a\tb'
echo -E 'a\tb'
shopt -u xpg_echo
echo 'a\tb'

### write errors fail
echo hi > /dev/full; echo status=$?
