package danger

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// encodedLiteral is a base64 or hex literal an interpreter's code decodes:
// b64decode("…"), atob('…'), Buffer.from("…", "base64"), bytes.fromhex("…").
var encodedLiteral = lazy.Regexp{Expr: `(?:b64decode|decodebytes|decodestring|atob|base64_decode|decode64|` +
	`decode_base64|Base64\.\w*decode\w*|Buffer\.from|fromhex|unhexlify)\s*\(\s*b?["']([A-Za-z0-9+/=_-]{8,})["']`}

// rot13Literal is codecs.decode("…", "rot13").
var rot13Literal = lazy.Regexp{Expr: `decode\(\s*(?:'((?:[^'\\]|\\.)+)'|"((?:[^"\\]|\\.)+)")\s*,\s*["']rot_?13["']`}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// encoded judges the code an interpreter's code hides in an encoded
// literal: decoded, it is judged as code of the same language (exec of
// base64 that rmtree's the home directory).
func (w *walker) encoded(lang, code string) {
	if !mayContain(code, "decode", "atob", "Buffer", "fromhex", "hexlify", "decode64") {
		return
	}
	for _, m := range rot13Literal.Get().FindAllStringSubmatch(code, 8) {
		w.inline(lang, rot13(m[1]+m[2]))
	}
	for _, m := range encodedLiteral.Get().FindAllStringSubmatch(code, 8) {
		for _, dec := range []func(string) ([]byte, error){
			base64.StdEncoding.DecodeString, base64.URLEncoding.DecodeString, base64.RawStdEncoding.DecodeString,
			hex.DecodeString,
		} {
			if b, err := dec(m[1]); err == nil && utf8.Valid(b) && len(b) < len(code) {
				w.inline(lang, string(b))
				break
			}
		}
	}
}
