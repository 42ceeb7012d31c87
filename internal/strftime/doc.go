// Package strftime formats times as C's strftime(3) does in the C locale,
// with glibc's flags: what bash's printf %(fmt)T, its prompts' \D{fmt}
// and HISTTIMEFORMAT print.
package strftime
