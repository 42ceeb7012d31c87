package eval

import "slices"

// setOpt is an option of set -o; shopt's are [shoptOpt].
type setOpt uint8

const (
	optAllexport setOpt = iota
	optBraceexpand
	optEmacs
	optErrexit
	optErrtrace
	optFunctrace
	optHashall
	optHistexpand
	optHistory
	optIgnoreeof
	optInteractiveComments
	optKeyword
	optMonitor
	optNoclobber
	optNoexec
	optNoglob
	optNolog
	optNotify
	optNounset
	optOnecmd
	optPhysical
	optPipefail
	optPosix
	optPrivileged
	optVerbose
	optVi
	optXtrace
	numSetOpts
)

// setOpts are the set -o options by name, with the letters of set -x and $-
// (0 for none), in the order set -o lists them.
var setOpts = [numSetOpts]struct {
	name   string
	letter byte
}{
	{"allexport", 'a'}, {"braceexpand", 'B'}, {"emacs", 0}, {"errexit", 'e'}, {"errtrace", 'E'},
	{"functrace", 'T'}, {"hashall", 'h'}, {"histexpand", 'H'}, {"history", 0}, {"ignoreeof", 0},
	{"interactive-comments", 0}, {"keyword", 'k'}, {"monitor", 'm'}, {"noclobber", 'C'}, {"noexec", 'n'},
	{"noglob", 'f'}, {"nolog", 0}, {"notify", 'b'}, {"nounset", 'u'}, {"onecmd", 't'}, {"physical", 'P'},
	{"pipefail", 0}, {"posix", 0}, {"privileged", 'p'}, {"verbose", 'v'}, {"vi", 0}, {"xtrace", 'x'},
}

// dollarDashOrder is the order bash lists the letters of $- in.
const dollarDashOrder = "abefhikmnptuvxBCEHPT"

// shoptOpt is an option of shopt.
type shoptOpt uint8

const (
	optAutocd shoptOpt = iota
	optAssocExpandOnce
	optCdableVars
	optCdspell
	optCheckhash
	optCheckjobs
	optCheckwinsize
	optCmdhist
	optCompat31
	optCompat32
	optCompat40
	optCompat41
	optCompat42
	optCompat43
	optCompat44
	optCompleteFullquote
	optDirexpand
	optDirspell
	optDotglob
	optExecfail
	optExpandAliases
	optExtdebug
	optExtglob
	optExtquote
	optFailglob
	optForceFignore
	optGlobasciiranges
	optGlobskipdots
	optGlobstar
	optGnuErrfmt
	optHistappend
	optHistreedit
	optHistverify
	optHostcomplete
	optHuponexit
	optInheritErrexit
	optInteractiveCommentsShopt
	optLastpipe
	optLithist
	optLocalvarInherit
	optLocalvarUnset
	optLoginShell
	optMailwarn
	optNoEmptyCmdCompletion
	optNocaseglob
	optNocasematch
	optNoexpandTranslation
	optNullglob
	optPatsubReplacement
	optProgcomp
	optProgcompAlias
	optPromptvars
	optRestrictedShell
	optShiftVerbose
	optSourcepath
	optVarredirClose
	optXpgEcho
	numShopts
)

var shoptNames = [numShopts]string{
	"autocd", "assoc_expand_once", "cdable_vars", "cdspell", "checkhash", "checkjobs", "checkwinsize",
	"cmdhist", "compat31", "compat32", "compat40", "compat41", "compat42", "compat43", "compat44",
	"complete_fullquote", "direxpand", "dirspell", "dotglob", "execfail", "expand_aliases", "extdebug",
	"extglob", "extquote", "failglob", "force_fignore", "globasciiranges", "globskipdots", "globstar",
	"gnu_errfmt", "histappend", "histreedit", "histverify", "hostcomplete", "huponexit",
	"inherit_errexit", "interactive_comments", "lastpipe", "lithist", "localvar_inherit",
	"localvar_unset", "login_shell", "mailwarn", "no_empty_cmd_completion", "nocaseglob", "nocasematch",
	"noexpand_translation", "nullglob", "patsub_replacement", "progcomp", "progcomp_alias", "promptvars",
	"restricted_shell", "shift_verbose", "sourcepath", "varredir_close", "xpg_echo",
}

// options are a shell's set -o and shopt settings; a subshell copies them.
type options struct {
	set   [numSetOpts]bool
	shopt [numShopts]bool
}

func defaultOptions(interactive bool) options {
	var o options
	for _, s := range []setOpt{optBraceexpand, optHashall, optInteractiveComments} {
		o.set[s] = true
	}
	for _, s := range []shoptOpt{optCheckwinsize, optCmdhist, optCompleteFullquote, optExtquote,
		optForceFignore, optGlobasciiranges, optGlobskipdots, optHostcomplete,
		optInteractiveCommentsShopt, optPatsubReplacement, optProgcomp, optPromptvars, optSourcepath} {
		o.shopt[s] = true
	}
	if interactive {
		o.set[optEmacs], o.set[optHistexpand], o.set[optHistory], o.set[optMonitor] = true, true, true, true
		o.shopt[optExpandAliases] = true
	}
	return o
}

func lookupSetOpt(name string) (setOpt, bool) {
	for i, o := range setOpts {
		if o.name == name {
			return setOpt(i), true
		}
	}
	return 0, false
}

func lookupSetLetter(c byte) (setOpt, bool) {
	for i, o := range setOpts {
		if o.letter == c && c != 0 {
			return setOpt(i), true
		}
	}
	return 0, false
}

func lookupShopt(name string) (shoptOpt, bool) {
	for i, n := range shoptNames {
		if n == name {
			return shoptOpt(i), true
		}
	}
	return 0, false
}

// dollarDash is $-: the letters of the set options that are on, and i for
// an interactive shell, c for a -c string, s for commands from stdin.
func (r *Runner) dollarDash() string {
	var b []byte
	for i := 0; i < len(dollarDashOrder); i++ {
		c := dollarDashOrder[i]
		switch c {
		case 'i':
			if r.sess.interactive {
				b = append(b, c)
			}
			continue
		}
		if o, ok := lookupSetLetter(c); ok && r.opts.set[o] {
			b = append(b, c)
		}
	}
	return string(b) + r.sess.dashExtra
}

// OptionNames are the names of set -o's options (set) or shopt's, in the
// order they list them.
func OptionNames(set bool) []string {
	if !set {
		return slices.Clone(shoptNames[:])
	}
	names := make([]string, 0, numSetOpts)
	for _, o := range setOpts {
		names = append(names, o.name)
	}
	return names
}
