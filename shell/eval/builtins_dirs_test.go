package eval

import "testing"

func TestCdAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"basic", `mkdir -p a/b; cd a/b; pwd; echo "$PWD $OLDPWD"; cd ..; pwd; cd; pwd`},
		{"dash", `mkdir a; cd a; cd -; echo "$? $PWD"; cd - >/dev/null; pwd`},
		{"empty", `cd ""; echo "$? $PWD"`},
		{"options", `cd -@ /; echo $?; cd -x; echo $?; cd -e /; echo "$? $PWD"; cd -Pe /tmp; echo $?`},
		{"home-unset", `unset HOME; cd; echo $?`},
		{"home-empty", `HOME=; cd; echo "$? $PWD"`},
		{"oldpwd-unset", `unset OLDPWD; cd -; echo $?`},
		{"oldpwd-empty", `OLDPWD=; cd -; echo "$? $PWD"`},
		{"missing", `cd /nonexistent; echo $?; cd nothere; echo $?`},
		{"not-dir", `touch f; cd f; echo $?; cd f/x; echo $?`},
		{"too-many", `cd a b; echo $?`},
		{"no-permission", `mkdir -p locked; chmod 0 locked; cd locked 2>/dev/null; echo $? | grep -c .`},
		{"cdpath", `mkdir -p x/sub; CDPATH=$PWD/x cd sub; echo "$? $PWD"`},
		{"cdpath-dot-first", `mkdir -p x/sub sub; CDPATH=:$PWD/x cd sub; echo "$? $PWD"`},
		{"cdpath-relative", `mkdir -p x/sub; CDPATH=x cd sub; echo "$? $PWD"`},
		{"cdpath-not-for-dot", `mkdir -p x/sub; CDPATH=$PWD/x cd ./sub; echo $?`},
		{"cdpath-miss", `mkdir -p sub; CDPATH=/nonexistent cd sub; echo "$? $PWD"`},
		{"pwd-ignores-PWD", `PWD=/etc; pwd; cd ..; pwd`},
		{"logical", `mkdir -p real/sub; ln -s real link; cd link/sub; pwd; pwd -P; cd ..; pwd; echo $PWD`},
		{"physical", `mkdir -p real/sub; ln -s real link; cd -P link/sub/..; pwd; cd -L "$OLDPWD"; pwd`},
		{"last-option-wins", `mkdir real; ln -s real link; cd -PL link; pwd; cd ..; cd -LP link; pwd`},
		{"set-physical", `mkdir real; ln -s real link; set -o physical; cd link; pwd; echo $PWD`},
		{"pwd-options", `mkdir real; ln -s real link; cd link; pwd -L; pwd -P; pwd -LP; pwd -PL; pwd -x; echo $?; pwd a; echo $?`},
		{"dotdot-through-link", `mkdir -p real/sub other; ln -s ../real/sub other/ls; cd other/ls; cd ..; pwd`},
		{"dotdot-not-dir", `mkdir d; touch f; cd f/../d; echo "$? $PWD"`},
		{"cdable-vars", `mkdir -p there; shopt -s cdable_vars; v=$PWD/there; cd v; echo "$? $PWD"`},
		{"double-slash", `cd //; pwd; cd ///; pwd; cd //tmp/; pwd`},
		{"trailing-slash", `mkdir d; cd d/; pwd; cd ./; pwd`},
		{"exports", `mkdir d; cd d; printenv OLDPWD PWD`},
		{"not-exported", `export -n PWD OLDPWD; mkdir d; cd d; printenv OLDPWD PWD; echo $?`},
		{"readonly-pwd", `mkdir d; readonly PWD; cd d; echo "$? $(pwd)"`},
		{"subshell", `mkdir d; (cd d; pwd); pwd`},
		{"external-sees-dir", `mkdir d; cd d; /bin/pwd; ls -d "$PWD"`},
		{"deleted", `mkdir d; cd d; rmdir ../d; pwd; echo $?; pwd -P; echo $?`},
		{"tilde-oldpwd", `mkdir d; cd d; cd ..; echo ~- ~+`},
	})
}

func TestDirStackAgainstBash(t *testing.T) {
	setup := `mkdir -p d1 d2 d3; H=$PWD; `
	checkAgainstBash(t, []bashCase{
		{"dirs-errors", `dirs -x; echo $?; dirs +5; echo $?; dirs -5; echo $?; dirs x; echo $?; dirs +x; echo $?; dirs -clp; echo $?; dirs --; echo $?`},
		{"empty-stack", `pushd; echo $?; popd; echo $?; popd +0; echo $?; popd -n; echo $?; pushd +3; echo $?; popd +3; echo $?`},
		{"push-errors", `pushd /nonexistent; echo $?; pushd -x; echo $?; pushd +x; echo $?; pushd a b; echo $?`},
		{"pop-errors", `popd -x; echo $?; popd x; echo $?; popd +x; echo $?; popd a b; echo $?`},
		{"push-pop", setup + `pushd d1; pushd $H/d2; pushd ../d3; dirs -v; pushd +1; pushd -0; dirs -p; popd +1; popd -n; popd; dirs -l; echo $PWD`},
		{"home-tilde", setup + `cd d1; pushd $H/d2 >/dev/null; dirs; dirs -l; dirs +0; dirs -v +1; dirs -1; echo "${DIRSTACK[@]}"; dirs -c; dirs`},
		{"home-root", `HOME=/; cd /tmp; pushd / >/dev/null; dirs`},
		{"no-cd", setup + `cd d1; pushd -n $H/d2; pushd -n /nonexistent; echo $? $PWD; dirs`},
		{"swap", setup + `cd d1; pushd $H/d2 >/dev/null; pushd >/dev/null; echo $PWD; dirs`},
		{"tildes", setup + `cd d1; pushd $H/d2 >/dev/null; echo ~+ ~- ~+0 ~+1 ~-0 ~-1 ~1 ~2 ~+5`},
		{"double-dash", setup + `cd d1; pushd -- $H/d2; pushd -n -- $H/d3`},
		{"push-empty", `pushd ""; echo $?`},
		{"push-dash", setup + `cd d1; cd $H/d2; pushd -; echo $PWD`},
		{"pop-n", setup + `pushd d1 >/dev/null; popd -n; echo "$? $PWD"`},
		{"pop-index", setup + `pushd d1 >/dev/null; popd -1; echo $?; popd -0; echo $?`},
		{"out-of-range", setup + `pushd d1 >/dev/null; dirs +5; echo $?; dirs -5; echo $?; pushd +5; echo $?; popd +5; echo $?; popd -5; echo $?; dirs +1 +0; dirs -v -l +1`},
		{"rotate-no-cd", setup + `pushd d1 >/dev/null; pushd $H/d2 >/dev/null; pushd -n +1; echo $?; dirs; pushd -n +0; echo $?`},
		{"rotate-missing", setup + `pushd d1 >/dev/null; pushd -n $H/gone >/dev/null; pushd +1; echo $?; dirs`},
		{"swap-missing", setup + `pushd -n $H/gone >/dev/null; pushd; echo $?; dirs`},
		{"push-zero", `pushd -0; echo $?; pushd +0; echo $?`},
		{"pop-cd-fails", setup + `pushd -n $H/gone >/dev/null; popd; echo $?; dirs`},
		{"subshell", setup + `(pushd d1 >/dev/null; dirs); dirs`},
		{"cdpath", setup + `mkdir -p x/sub; CDPATH=$H/x pushd sub; echo $?`},
		{"pushd-logical", `mkdir real; ln -s real link; pushd link >/dev/null; dirs; pushd -n /tmp >/dev/null; popd -n >/dev/null; dirs`},
		{"stack-var", setup + `pushd d1 >/dev/null; pushd $H/d2 >/dev/null; echo ${#DIRSTACK[@]} "${DIRSTACK[1]}"`},
	})
}
