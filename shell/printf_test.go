package shell

import (
	"strings"
	"testing"
	"time"
)

// sprintf runs printf's formatting with TZ=UTC and reports its output,
// status and messages.
func sprintf(format string, args ...string) (string, int, string) {
	var msgs []string
	p := &printer{
		args: args,
		warn: func(m string) { msgs = append(msgs, m) },
		zone: func() *time.Location { return time.UTC },
	}
	p.run(format)
	return string(p.out), p.status, strings.Join(msgs, "; ")
}

// The expectations are bash 5.2's output in C.UTF-8.
func TestPrintf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format string
		args   []string
		want   string
		status int
	}{
		{"x", []string{"y"}, "x", 0},
		{"-%s-%s-\n", []string{"a", "b", "c"}, "-a-b-\n-c--\n", 0},
		{"%s %d %c|", nil, " 0 \x00|", 0},
		{"[%5s][%-5s][%.2s][%6.0s][%06s]", []string{"abc", "abc", "abc", "foo", "42"}, "[  abc][abc  ][ab][      ][    42]", 0},
		{"[%*s][%.*s][%*.*s][%-*d]", []string{"5", "ab", "1", "xyz", "4", "2", "hello", "-3", "1"}, "[   ab][x][  he][1  ]", 0},
		{"[%3s][%.1s]", []string{"μ", "μ"}, "[ μ][\xce]", 0},
		{"%d %i %d %d %d", []string{"42", "-42", "'a", "\"a", "'"}, "42 -42 97 97 0", 0},
		{"%x %u %o", []string{"'μ", "'三", "'\xce\xce"}, "3bc 19977 316", 0},
		{"%x", []string{"'\xf4\x91\x84\x91"}, "111111", 0},
		{"%x|%x", []string{"'\xc1\x81", "'\xed\xa0\x80"}, "c1|ed", 0},
		{"[%6.4d][%.4d][%6.d][%6.6d][%06d]", []string{"42", "-42", "42", "-42", "-42"}, "[  0042][-0042][    42][-000042][-00042]", 0},
		{"[%#o][%#o][%#x][%#X][%#x]", []string{"0", "42", "0", "42", "255"}, "[0][052][0][0X2A][0xff]", 0},
		{"[%+d][% d][%+u][%.0d][%08.3x]", []string{"42", "42", "5", "0", "255"}, "[+42][ 42][5][][     0ff]", 0},
		{"%u %x %X %o", []string{"-42", "-42", "-42", "-42"}, "18446744073709551574 ffffffffffffffd6 FFFFFFFFFFFFFFD6 1777777777777777777726", 0},
		{"%d %d %d %d %d", []string{"0x55", "055", "+0XAB", " -123", "\t+077"}, "85 45 171 -123 63", 0},
		{"%d|%d|%d|%d", []string{"3abc", "xyz", " -42 ", "64#a"}, "3|0|-42|64", 1},
		{"%d", []string{""}, "0", 0},
		{"%u %u %d %d", []string{"18446744073709551616", "-18446744073709551615", "18446744073709551616", "-18446744073709551616"},
			"18446744073709551615 1 9223372036854775807 -9223372036854775808", 0},
		{"[%f][%.2f][%8.2f][%-8.2f][%08.4f]", []string{"3.14159", "3.14159", "3.14159", "3.14159", "3.14"}, "[3.141590][3.14][    3.14][3.14    ][003.1400]", 0},
		{"[%e][%E][%g][%G][%.0f][%#.0f][%g][%#g]", []string{"3.14", "3.14", "3.14", "1e20", "3", "3", "3", "3"},
			"[3.140000e+00][3.140000E+00][3.14][1E+20][3][3.][3][3.00000]", 0},
		{"[%f][%F][%5.1e][%+f][%010.2f]", []string{"inf", "-inf", "nan", "inf", "-inf"}, "[inf][-INF][  nan][+inf][      -inf]", 0},
		{"%a %A %a %.2a %#a", []string{"1", "2.5", "0", "1.999", "1"}, "0x8p-3 0XAP-2 0x0p+0 0xf.fep-3 0x8.p-3", 0},
		{"%f|%f", []string{"0x10", "3abc"}, "16.000000|3.000000", 1},
		{"%.20f|%e|%a|%.0a", []string{"0.1", "1e400", "0.1", "1"}, "0.10000000000000000000|1.000000e+400|0xc.ccccccccccccccdp-7|0x8p-3", 0},
		{"%#g|%#.0e|%.0e|%g|%G|%.17g|%.3a", []string{"100", "5", "15", "1e100", "1.5e-10", "0.1", "15.9"},
			"100.000|5.e+00|2e+01|1e+100|1.5E-10|0.1|0xf.e66p+0", 0},
		{"%08.3e|%-12.2E|%+.1f|% .2f|%010a|%.2f", []string{"3.14159", "2.5", "-0.05", "0.125", "1", "2.675"},
			"3.142e+00|2.50E+00    |-0.1| 0.12|0x00008p-3|2.67", 0},
		{`a\tb\044e\0377\377\Z\'\"\?\c`, nil, "a\tb$e\x1f7\xff\\Z'\"?\\c", 0},
		{`\u2620\U0000065f\x41\x4\x414\ud800`, nil, "\u2620\u065fA\x04A4\xed\xa0\x80", 0},
		{`\x|\u`, nil, `\x|\u`, 0},
		{"[%b][%b][%b][%b]", []string{`\044`, `\x7e`, `\A`, `\u03bc`}, "[$][~][\\A][μ]", 0},
		{"%b|%b|%b|%b", []string{`\141`, `\0141`, `\1419`, `\558`}, "a|a|a9|-8", 0},
		{"%b|%b", []string{`\'\"\?`, `a\0`}, `\'\"\?|a` + "\x00", 0},
		{"[%b]\n", []string{`ab\ncd\cxy`, "z"}, "[ab\ncd", 0},
		{"%c|%c|%5c|%-3c|", []string{"ABC", "μ", "a", "b"}, "A|\xce|    a|b  |", 0},
		{"[%q][%6q][%q][%q]", []string{"a b", "a b", "", "~a=~"}, `[a\ b][  a\ b][''][\~a=\~]`, 0},
		{"[%q][%q][%q][%q]", []string{"#a#", "μ", "a\tb", "\xce"}, `[\#a#][μ][$'a\tb'][$'\316']`, 0},
		{"[%q][%q][%.3q][%.2Q]", []string{"\x1b", "a\x7f", "a b", "a b"}, `[$'\E'][$'a\177'][a\ ][a\ ]`, 0},
		{"[%%][%%%s%%]", []string{"x"}, "[%][%x%]", 0},
		{"%ld %hhd %lld %jd %zd %Lf", []string{"1", "2", "3", "4", "5", "6"}, "1 2 3 4 5 6.000000", 0},
		{"%z", []string{"42"}, "", 1},
		{"%-z", []string{"42"}, "", 1},
		{"%5%", nil, "", 1},
		{"abc%z", nil, "abc", 1},
		{"x%5", nil, "x", 1},
		{"%(%Y-%m-%d %H:%M:%S)T", []string{"1557978599"}, "2019-05-16 03:49:59", 0},
		{"[%10.5(%Y-%m-%d)T][%(%Y)T]", []string{"1557978599", ""}, "[     2019-][1970]", 0},
		{"%(%Y)T", []string{"x"}, "1970", 1},
		{"%(" + strings.Repeat("%Y", 31) + ")T|%(" + strings.Repeat("%Y", 32) + ")T", []string{"0", "0"}, strings.Repeat("1970", 31) + "|", 0},
		{"%(", nil, "%(", 0},
		{"%(%Y)", nil, "%(", 1},
		{"%99999999999d", []string{"1"}, "", 1},
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
		if got := strftime(tt.format, tm); got != tt.want {
			t.Errorf("strftime(%q) = %q; want %q", tt.format, got, tt.want)
		}
	}
	// Week numbers around new year (bash: 2024-01-01 is %U 00, %W 01).
	if got := strftime("%U %W %V %G", time.Unix(1704067200, 0).UTC()); got != "00 01 01 2024" {
		t.Errorf("strftime weeks of 2024-01-01 = %q", got)
	}
}

func TestValidVarRef(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{"foo": true, "_x1": true, "a[1]": true, "a[$i+1]": true,
		"": false, "1a": false, "a b": false, "a[": false, "a[]": false, "a[1]x": false, "-v": false} {
		if got := validVarRef(s); got != want {
			t.Errorf("validVarRef(%q) = %v; want %v", s, got, want)
		}
	}
}

func TestPrintfBuiltin(t *testing.T) {
	s, _, out := newTestShell(t, nil)
	s.RunString(t.Context(), `
printf -v x '%s|%q' "a 'b'" '$'; echo "$x"
a=(a b c); printf -v 'a[1]' %s foo; echo "${a[@]}"
f() { local l; printf -v l %s local; printf -v g %s global; echo "l=$l"; }; f; echo "l=$l g=$g"
printf -v 'a[' %s x; echo "status=$?"
printf -v; echo "status=$?"
printf; echo "status=$?"
printf '%d\n' 3abc; echo "status=$?"
builtin printf '%s\n' via-builtin
command printf '%s\n' via-command
echo "$(printf %05.1f 2.5)"
export TZ=Asia/Tokyo; printf '%(%H)T\n' 0; TZ=UTC; printf '%(%H)T\n' 0
`)
	want := `a 'b'|\$
a foo c
l=local
l= g=global
status=2
status=2
status=2
3
status=1
via-builtin
via-command
002.5
09
00
`
	var kept []string
	for line := range strings.Lines(out.String()) {
		if !strings.HasPrefix(line, "qsh:") && !strings.HasPrefix(line, "printf: usage") {
			kept = append(kept, line)
		}
	}
	if got := strings.Join(kept, ""); !strings.Contains(got, want) {
		t.Errorf("output:\n%s\nwant it to hold:\n%s", got, want)
	}
}

// FuzzPrintf checks that no format and arguments make printf panic or
// hang, and that a format without % or \ prints as it is.
func FuzzPrintf(f *testing.F) {
	for _, seed := range [][3]string{
		{"%s %d\n", "a", "3"}, {"%*.*f", "5", "2"}, {`\0377\u12%b`, `\c\x4`, ""}, {"%(%Y%k)T%q", "-2", "\x80"},
		{"%#-+ 010.3x%%%c", "'μ", ""}, {"%a|%.3A|%g", "1e300", "0x1p-1074"}, {"%(", "", ""},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, format, a, b string) {
		if len(format) > 64 || len(a)+len(b) > 256 {
			// Field widths reach 1 MiB; many of them in a long format
			// print (correctly) so much that fuzzing crawls.
			t.Skip()
		}
		out, st, _ := sprintf(format, a, b)
		if st != 0 && st != 1 {
			t.Fatalf("status %d", st)
		}
		if !strings.ContainsAny(format, `%\`) && out != format {
			t.Fatalf("plain format %q printed %q", format, out)
		}
	})
}
