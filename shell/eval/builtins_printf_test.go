package eval

import (
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/strftime"
)

func TestPrintfAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"reuse", `printf '-%s-%s-\n' a b c; printf x y; echo`},
		{"missing-args", `printf '%s %d %c|' | od -c`},
		{"string-widths", `printf '[%5s][%-5s][%.2s][%6.0s][%06s]\n' abc abc abc foo 42`},
		{"star", `printf '[%*s][%.*s][%*.*s][%-*d]\n' 5 ab 1 xyz 4 2 hello -3 1`},
		{"utf8-width", `printf '[%3s][%.1s]\n' μ μ | od -c`},
		{"char-consts", `printf '%d %i %d %d %d\n' 42 -42 "'a" '"a' "'"`},
		{"char-wide", `printf '%x %u %o\n' "'μ" "'三" $'\'\xce\xce'`},
		{"char-invalid", `printf '%x|%x\n' $'\'\xc1\x81' $'\'\xed\xa0\x80'`},
		{"int-precision", `printf '[%6.4d][%.4d][%6.d][%6.6d][%06d]\n' 42 -42 42 -42 -42`},
		{"int-alt", `printf '[%#o][%#o][%#x][%#X][%#x]\n' 0 42 0 42 255`},
		{"int-flags", `printf '[%+d][% d][%+u][%.0d][%08.3x]\n' 42 42 5 0 255`},
		{"unsigned-neg", `printf '%u %x %X %o\n' -42 -42 -42 -42`},
		{"bases", `printf '%d %d %d %d %d\n' 0x55 055 +0XAB ' -123' $'\t+077'`},
		{"invalid-numbers", `printf '%d|%d|%d|%d\n' 3abc xyz ' -42 ' 64#a; echo "status $?"`},
		{"empty-number", `printf '%d\n' ''`},
		{"overflow", `printf '%u %u %d %d\n' 18446744073709551616 -18446744073709551615 18446744073709551616 -18446744073709551616; echo "status $?"`},
		{"floats", `printf '[%f][%.2f][%8.2f][%-8.2f][%08.4f]\n' 3.14159 3.14159 3.14159 3.14159 3.14`},
		{"float-forms", `printf '[%e][%E][%g][%G][%.0f][%#.0f][%g][%#g]\n' 3.14 3.14 3.14 1e20 3 3 3 3`},
		{"float-special", `printf '[%f][%F][%5.1e][%+f][%010.2f]\n' inf -inf nan inf -inf`},
		{"hex-float", `printf '%a %A %a %.2a %#a\n' 1 2.5 0 1.999 1`},
		{"float-invalid", `printf '%f|%f\n' 0x10 3abc; echo "status $?"`},
		{"long-double", `printf '%.20f|%e|%a|%.0a\n' 0.1 1e400 0.1 1`},
		{"float-g", `printf '%#g|%#.0e|%.0e|%g|%G|%.17g|%.3a\n' 100 5 15 1e100 1.5e-10 0.1 15.9`},
		{"float-pad", `printf '%08.3e|%-12.2E|%+.1f|% .2f|%010a|%.2f\n' 3.14159 2.5 -0.05 0.125 1 2.675`},
		{"float-char", `printf '%.1f\n' "'A"`},
		{"format-escapes", `printf 'a\tb\044e\0377\377\Z\'"'"'\"\?\c|' | od -c`},
		{"format-unicode", `printf '\u2620\U0000065f\x41\x4\x414\ud800' | od -An -tx1`},
		{"format-bad-escapes", `printf '\x|\u\n'; echo "status $?"`},
		{"b", `printf '[%b][%b][%b][%b]\n' '\044' '\x7e' '\A' '\u03bc'`},
		{"b-octal", `printf '%b|%b|%b|%b\n' '\141' '\0141' '\1419' '\558'`},
		{"b-quotes", `printf '%b|%b' '\'"'"'\"\?' 'a\0' | od -c`},
		{"b-stop", `printf '[%b]\n' 'ab\ncd\cxy' z; echo "|$?"`},
		{"c", `printf '%c|%c|%5c|%-3c|\n' ABC μ a b | od -c`},
		{"q", `printf '[%q][%6q][%q][%q]\n' 'a b' 'a b' '' '~a=~'`},
		{"q-special", `printf '[%q][%q][%q][%q]\n' '#a#' μ $'a\tb' $'\xce'`},
		{"q-control", `printf '[%q][%q][%.3q][%.2Q]\n' $'\e' $'a\x7f' 'a b' 'a b'`},
		{"q-roundtrip", `s=$'it'"'"'s "x" $y \\ *'; eval "t=$(printf %q "$s")"; [[ $s == "$t" ]] && echo same`},
		{"percent", `printf '[%%][%%%s%%]\n' x`},
		{"length-modifiers", `printf '%ld %hhd %lld %jd %zd %Lf\n' 1 2 3 4 5 6`},
		{"bad-conversion", `printf '%z' 42; echo "status $?"`},
		{"bad-conversion-flag", `printf '%-z' 42; echo "status $?"`},
		{"bad-percent-width", `printf '%5%'; echo "status $?"`},
		{"bad-after-text", `printf 'abc%z'; echo "status $?"`},
		{"missing-char", `printf 'x%5'; echo "status $?"`},
		{"time", `export TZ=UTC; printf '%(%Y-%m-%d %H:%M:%S)T\n' 1557978599`},
		{"time-width", `export TZ=UTC; printf '[%10.5(%Y-%m-%d)T][%(%Y)T]\n' 1557978599 ''`},
		{"time-invalid", `export TZ=UTC; printf '%(%Y)T\n' x; echo "status $?"`},
		{"time-long", `export TZ=UTC; printf "%($(printf '%%Y%.0s' {1..31}))T|%($(printf '%%Y%.0s' {1..32}))T\n" 0 0`},
		{"time-nested", `export TZ=UTC; printf '%(%Y)T %(%Y)Tz %(%(%Y))T|\n' 0 0 0`},
		{"time-not-T", `printf '%(%Y)x|%s' a; echo "status $?"`},
		{"time-no-T", `printf '%(%Y)'; echo "status $?"`},
		{"time-zone-name", `export TZ=Europe/Paris; printf '%(%H:%M %Z %z)T\n' 0`},
		{"time-posix-tz", `export TZ=XYZ-3; printf '%(%H %Z)T\n' 0`},
		{"time-now", `a=$(printf '%(%s)T' -1); b=$(date +%s); (( b - a < 5 )) && echo close`},
		{"time-default", `export TZ=UTC; printf '%()T\n' 3600`},
		{"v", `printf -v x '%s-%s' a b; echo "$x"`},
		{"v-joined", `printf -vx -- '%s' y; echo "$x"`},
		{"v-array", `printf -v 'a[1]' %s x; printf -v 'a[1+1]' y; declare -p a`},
		{"v-array-var-subscript", `i=2; printf -v "a[\$i]" z; declare -p a`},
		{"v-assoc", `declare -A m; k=key; printf -v "m[\$k]" v; printf -v 'm[two words]' w; declare -p m`},
		{"v-bad-name", `printf -v 'a b' x; echo "status $?"; printf -v 'a[' x; echo "status $?"`},
		{"v-readonly", `readonly r; printf -v r x; echo "status $?"`},
		{"v-integer", `declare -i n; printf -v n '1+2'; echo $n`},
		{"v-integer-error", `declare -i n; printf -v n '2 3'; echo "not reached $?"`},
		{"v-local", `f(){ local l; printf -v l hi; echo "in $l"; }; f; echo "out [$l]"`},
		{"v-nul", `printf -v x 'a\0b'; echo "${#x}"`},
		{"v-nameref", `declare -n r=t; printf -v r hi; echo "$t"`},
		{"v-allexport", `set -a; printf -v ex hi; printenv ex`},
		{"usage", `printf; echo "status $?"; printf -v; echo "status $?"; printf -v x; echo "status $?"`},
		{"bad-option", `printf -x; echo "status $?"`},
		{"dash-arg", `printf '%s\n' -v --`},
		{"write-error", `printf x > /dev/full; echo "status $?"`},
		{"echo-write-error", `echo x > /dev/full; echo "status $?"`},
		{"reuse-stops-unused", `printf 'x\n' a b c`},
		{"reuse-b-stop", `printf '%b-' a 'b\c' c; echo`},
		{"star-invalid", `printf '[%*d]\n' x 5; echo "status $?"`},
		{"many-args", `printf '%s,' {1..20}; echo`},
	})
}

func TestEchoAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"plain", `echo a  b; echo; echo -n x; echo`},
		{"flags", `echo -n -e 'a\tb'; echo; echo -neE 'a\tb'; echo -- -n; echo -nx a; echo -`},
		{"escapes", `echo -e 'a\nb\tc\\d\x41\u00e9\0101\101\e[0m\c ignored' | od -c`},
		{"stop", `echo -e 'a\cb' c; echo after`},
		{"xpg", `shopt -s xpg_echo; echo 'a\tb'; echo -E 'a\tb'`},
		{"quotes", `echo -e '\'"'"'\"\?'`},
		{"bad-hex", `echo -e '\x|\u|\U'`},
	})
}

// The expectations of the formatting alone, without a bash to compare
// with: bash 5.2's output in C.UTF-8.
func TestPrintfFormat(t *testing.T) {
	t.Parallel()
	sprintf := func(format string, args ...string) (string, int, string) {
		var msgs []string
		p := &printer{
			args:  args,
			warn:  func(m string) { msgs = append(msgs, m) },
			zone:  func() *time.Location { return time.UTC },
			start: time.Unix(1000, 0),
		}
		p.run(format)
		return string(p.out), p.status, strings.Join(msgs, "; ")
	}
	tests := []struct {
		format string
		args   []string
		want   string
		status int
	}{
		{"-%s-%s-\n", []string{"a", "b", "c"}, "-a-b-\n-c--\n", 0},
		{"%s %d %c|", nil, " 0 \x00|", 0},
		{"%x|%x", []string{"'\xc1\x81", "'\xed\xa0\x80"}, "c1|ed", 0},
		{"%u %u", []string{"18446744073709551616", "-18446744073709551615"}, "18446744073709551615 1", 0},
		{"%.20f|%a", []string{"0.1", "0.1"}, "0.10000000000000000000|0xc.ccccccccccccccdp-7", 0},
		{"%b|%b", []string{`\0141`, `\558`}, "a|-8", 0},
		{"%(%Y)T|%(%s)T", []string{"0", "-2"}, "1970|1000", 0},
		{"%d", []string{"x"}, "0", 1},
		{"%99999999999d", []string{"1"}, "", 1},
		{"%1048577d", []string{"1"}, "", 1},
		{"%(", nil, "%(", 0},
	}
	for _, tt := range tests {
		got, st, msgs := sprintf(tt.format, tt.args...)
		if got != tt.want || st != tt.status {
			t.Errorf("printf %q %q = %q, status %d (%s); want %q, status %d", tt.format, tt.args, got, st, msgs, tt.want, tt.status)
		}
	}
}

func TestStrftime(t *testing.T) {
	t.Parallel()
	tm := time.Unix(1557978599, 0).In(time.FixedZone("WEST", 3600))
	tests := []struct{ format, want string }{
		{"%c|%x|%X|%r|%D|%e|%k|%l|%P", "Thu May 16 04:49:59 2019|05/16/19|04:49:59|04:49:59 AM|05/16/19|16| 4| 4|am"},
		{"%s|%z|%Z|%j|%U|%W|%V|%G|%g", "1557978599|+0100|WEST|136|19|19|20|2019|19"},
		{"%u|%w|%C|%h|%n|%t|%%|%E|%Ey|%Q|%Oy", "4|4|20|May|\n|\t|%|%E|19|%Q|19"},
		{"%5Y|%-d|%_m|%0e|%^a|%#Z|%10A|%-5d|%3j", "02019|16| 5|16|THU|west|  Thursday|   16|136"},
	}
	for _, tt := range tests {
		if got := strftime.Format(tt.format, tm); got != tt.want {
			t.Errorf("strftime(%q) = %q; want %q", tt.format, got, tt.want)
		}
	}
	// Week numbers around new year (bash: 2024-01-01 is %U 00, %W 01).
	if got := strftime.Format("%U %W %V %G", time.Unix(1704067200, 0).UTC()); got != "00 01 01 2024" {
		t.Errorf("strftime weeks of 2024-01-01 = %q", got)
	}
}
