# dirs, pushd and popd. HOME is the case's directory: dirs shows it as ~.

### pushd and popd move and print the stack
mkdir a b
pushd a; pwd
pushd ../b; pwd
popd; pwd
popd; pwd
popd; echo status=$?

### pushd with no argument swaps the first two
mkdir a
pushd a >/dev/null
pushd
pushd; echo status=$?
pushd; pushd; dirs -c; pushd; echo status=$?

### rotation with +N and -N
mkdir a b c
pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null
dirs -v
pushd +1
pushd -0
pushd +5; echo status=$?

### popd +N and -N remove an entry and stay
mkdir a b c
pushd a >/dev/null; pushd ../b >/dev/null; pushd ../c >/dev/null
popd +1; pwd
popd -0; pwd
popd +7; echo status=$?

### -n changes the stack only
mkdir a b
pushd -n a; pwd
pushd -n b; pwd
popd -n; pwd

### dirs -p -v -l and an index
mkdir a
pushd a >/dev/null
dirs -p
dirs -v
dirs -l | sed "s|$HOME|HOME|g"
dirs +0; dirs -0; dirs +1
dirs +3; echo status=$?

### cd changes the first entry
mkdir a b
pushd a >/dev/null
cd ../b
dirs
popd >/dev/null; pwd

### usage errors
pushd -z; echo status=$?
pushd a b; echo status=$?
pushd nosuch; echo status=$?
popd zzz; echo status=$?
popd -z; echo status=$?
dirs -z; echo status=$?
popd; echo status=$?
pushd -- . >/dev/null; echo status=$?

### a subshell's stack stays there
mkdir a
(pushd a >/dev/null; dirs)
dirs

### set -P and pwd
mkdir real; ln -s real link
cd link; pwd
set -P
cd ../link; pwd
set +P
pwd -L >/dev/null; echo status=$?

### cdable_vars
mkdir -p deep/dir
target=$PWD/deep/dir
shopt -s cdable_vars
cd target >/dev/null; basename "$PWD"
cd nosuchvar; echo status=$?
