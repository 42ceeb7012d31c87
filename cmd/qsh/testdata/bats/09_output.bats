#!/usr/bin/env bats
# Special characters in output and in test names.

@test "output with tabs and quotes" {
	run printf 'a\tb "c" '"'"'d'"'"'\n'
	[ "$output" = $'a\tb "c" \'d\'' ]
}

@test "names with 'quotes' and \"double quotes\"" {
	true
}

@test "names with symbols: #hash, \$dollar, %percent & more" {
	true
}

@test "unicode output: héllo wörld ✓" {
	run echo "héllo wörld ✓"
	[ "$output" = "héllo wörld ✓" ]
}

@test "backslashes survive" {
	run printf '%s\n' 'a\nb\\c'
	[ "$output" = 'a\nb\\c' ]
}

@test "failing with special characters in output" {
	printf 'tab\there\n'
	echo 'star * and $dollar and `tick`'
	false
}

@test "a long line" {
	run printf '%0500d\n' 0
	[ "${#output}" -eq 500 ]
}

@test "output to fd 3 is passed through" {
	echo "# a comment via fd 3" >&3
}
