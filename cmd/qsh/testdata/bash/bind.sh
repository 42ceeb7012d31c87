# bind in a shell that is not interactive: bash warns that line editing is
# not enabled, then binds, lists and queries all the same.

### query, bind, query again
bind -q yank
echo status=$?
bind '"\C-o\C-s": yank'
bind -q yank
bind -r '\C-o\C-s'
bind -q yank
bind -q no-such-function
echo status=$?

### readline variables, in readline's order: on/off first
bind 'set completion-ignore-case on'
bind -v
bind -V | grep completion-ignore-case

### shell commands in each keymap
bind -X | grep -c .
bind -m emacs -x '"\C-o\C-e": echo emacs'
bind -m emacs -X
bind -m vi -x '"\C-o\C-v": echo vi'
bind -m vi -X

### functions and macros
bind -l | grep -x -e accept-line -e yank
bind '"\C-o\C-m": "macro text"'
bind -s
bind -p | grep -F 'vi-subst'
