# umask, and the modes files are created with.

### print, -S, -p
umask 022; umask; umask -S; umask -p

### files made by redirections follow the umask
umask 0002; echo > a; stat -c %a a
umask 077; echo > b; stat -c %a b
umask 022; echo > c; stat -c %a c

### symbolic modes
umask 022
umask g-w,o-w; umask
umask u=rwx,g=rx,o=; umask
umask a+w; umask
umask o-rwx; umask -S

### bad masks
umask ''; echo $?
umask ' '; echo $?
umask 999; echo $?
umask z=r; echo $?
umask -x; echo $?
