package checkpoint

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Keep is QSH_AI_CHECKPOINT_KEEP: how long checkpoints are kept and how
// many bytes a workspace's store may hold, as "7d,1GB". Either part may be
// left out ("30d", "500MB"); 0 means no limit of that kind.
type Keep struct {
	Age   time.Duration
	Bytes int64
}

// DefaultKeep is "7d,1GB".
var DefaultKeep = Keep{Age: 7 * 24 * time.Hour, Bytes: 1 << 30}

// UnmarshalText parses "7d,1GB": a duration (Go's, or a number of days
// with d, or weeks with w) and a size (B, KB, MB, GB, TB: powers of 1024).
func (k *Keep) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "" {
		*k = DefaultKeep
		return nil
	}
	out := Keep{Age: -1, Bytes: -1}
	for _, part := range strings.Split(s, ",") {
		part = strings.ToLower(strings.TrimSpace(part))
		if d, ok := parseAge(part); ok && !(part == "0" && out.Age >= 0) {
			if out.Age >= 0 {
				return errors.New("expected an age and a size, as 7d,1GB (two ages given)")
			}
			out.Age = d
			continue
		}
		if n, ok := parseSize(part); ok {
			if out.Bytes >= 0 {
				return errors.New("expected an age and a size, as 7d,1GB (two sizes given)")
			}
			out.Bytes = n
			continue
		}
		return fmt.Errorf("expected an age and a size, as 7d,1GB (%q is neither)", part)
	}
	if out.Age < 0 {
		out.Age = DefaultKeep.Age
	}
	if out.Bytes < 0 {
		out.Bytes = DefaultKeep.Bytes
	}
	*k = out
	return nil
}

// String is the setting as it would be written.
func (k Keep) String() string {
	age := "0"
	switch {
	case k.Age == 0:
	case k.Age%(24*time.Hour) == 0:
		age = fmt.Sprintf("%dd", k.Age/(24*time.Hour))
	default:
		age = k.Age.String()
	}
	return age + "," + FormatSize(k.Bytes)
}

func parseAge(s string) (time.Duration, bool) {
	if s == "0" {
		return 0, true
	}
	for suf, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(s, suf); ok {
			v, err := strconv.ParseFloat(n, 64)
			if err != nil || v < 0 {
				return 0, false
			}
			return time.Duration(v * float64(unit)), true
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, false
	}
	return d, true
}

var sizeUnits = []struct {
	suf  string
	mult int64
}{{"tb", 1 << 40}, {"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10}, {"t", 1 << 40}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1}}

func parseSize(s string) (int64, bool) {
	if s == "0" {
		return 0, true
	}
	s = strings.TrimSuffix(s, "ib") // GiB as GB
	for _, u := range sizeUnits {
		if n, ok := strings.CutSuffix(s, u.suf); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
			if err != nil || v < 0 {
				return 0, false
			}
			return int64(v * float64(u.mult)), true
		}
	}
	return 0, false
}

// FormatSize says n bytes for people: 1.5 MB, 640 KB, 12 B.
func FormatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGB", float64(n)/(1<<30))
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%dKB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}
