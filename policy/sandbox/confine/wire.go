package confine

// The jail's control channel carries messages, each a list of strings:
// a 4-byte length of the rest, then each string as a 4-byte length and its
// bytes (lengths little-endian). File descriptors ride along with the
// first bytes of the message they belong to (SCM_RIGHTS). The encoding is
// written here, with nothing but the language, so that the jail's side
// needs no package that would cost qsh's start-up.

// maxMessage bounds a message: a program's arguments and environment fit
// (Linux allows 2 MiB of them with the default stack limit); a bad length
// is not a reason to allocate gigabytes.
const maxMessage = 8 << 20

// AppendMessage appends the message made of fields to b.
func AppendMessage(b []byte, fields ...string) []byte {
	n := 0
	for _, f := range fields {
		n += 4 + len(f)
	}
	b = appendUint32(b, uint32(n))
	for _, f := range fields {
		b = appendUint32(b, uint32(len(f)))
		b = append(b, f...)
	}
	return b
}

// ParseMessage reads the first message of b: its fields and its length
// in bytes, or n == 0 when b does not hold a whole one yet; ok is false
// when b cannot be a message.
func ParseMessage(b []byte) (fields []string, n int, ok bool) {
	if len(b) < 4 {
		return nil, 0, true
	}
	size := int(uint32At(b))
	if size > maxMessage {
		return nil, 0, false
	}
	if len(b) < 4+size {
		return nil, 0, true
	}
	body := b[4 : 4+size]
	for len(body) > 0 {
		if len(body) < 4 {
			return nil, 0, false
		}
		l := int(uint32At(body))
		if l > len(body)-4 {
			return nil, 0, false
		}
		fields = append(fields, string(body[4:4+l]))
		body = body[4+l:]
	}
	return fields, 4 + size, true
}

func appendUint32(b []byte, v uint32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

func uint32At(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// Itoa and Atoi are strconv's, for the numbers in messages.
func Itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	u := uint64(n)
	if neg {
		u = uint64(-n)
	}
	var b [20]byte
	i := len(b)
	for u > 0 {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// Atoi reads a decimal number, with a sign; ok is false for anything else
// or more than 18 digits.
func Atoi(s string) (int, bool) {
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if s == "" || len(s) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// Message types, and the kinds of the plan's steps.
const (
	MsgHello  = "hello"  // jail → qsh: it runs, and waits for its plan
	MsgPlan   = "plan"   // qsh → jail: namespaced ("1" or "0"), the seccomp filter, the steps
	MsgRules  = "rules"  // qsh → jail, after the plan: the Landlock ruleset (see Ruleset.Fields)
	MsgReady  = "ready"  // jail → qsh: the bridge's port ("" without one), then notes
	MsgFail   = "fail"   // jail → qsh: it could not be set up: why
	MsgStart  = "start"  // qsh → jail: id, path, dir, argc, argv…, env…; stdin, stdout, stderr as fds
	MsgPid    = "pid"    // jail → qsh: id, the program's process ID in the jail
	MsgError  = "error"  // jail → qsh: id, errno, what failed ("dir" or "exec")
	MsgExit   = "exit"   // jail → qsh: id, wait status
	MsgReset  = "reset"  // qsh → jail: kill every program; the jail answers reset when they are gone
	MsgSignal = "signal" // qsh → jail: a signal number, sent to every program (no answer)

	// qsh → jail, before its plan, which may not come (see package
	// sandbox's Prepare): a Landlock ruleset to make now, not enforced,
	// of rules most plans will have. The jail answers MsgPrebuilt, "1"
	// if it was made, else "0".
	MsgPrebuild = "prebuild"
	MsgPrebuilt = "prebuilt"
	// qsh → jail, after the plan, instead of MsgRules: the ruleset is the
	// prebuilt one with these rules added (the same rights handled).
	MsgMoreRules = "more-rules"

	StepMount    = "mount"    // src, dst, fstype, flags, data
	StepMkdir    = "mkdir"    // path, mode: made with its parents, mode set whatever the umask
	StepFile     = "file"     // path, mode: an empty file, its parents made
	StepRemount  = "remount"  // path, flags: a bind mount's flags changed (MS_RDONLY…)
	StepClone    = "clone"    // path: a copy of the tree at path, with its mounts, kept aside
	StepPlace    = "place"    // index, path: the index-th tree kept aside, mounted at path
	StepLoopback = "loopback" // the network namespace's loopback interface brought up
	StepBridge   = "bridge"   // socket: 127.0.0.1:port forwarded to the unix socket

	// A step's mode: it must work; or its failure is a note and the jail
	// goes on (the note is the step's text); or it runs only when the
	// step before it failed, and must work; or only when the step before
	// it worked, its failure a note.
	ModeMust = "must"
	ModeTry  = "try"
	ModeElse = "else"
	ModeThen = "then"
)
