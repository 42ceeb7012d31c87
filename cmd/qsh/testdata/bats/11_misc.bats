#!/usr/bin/env bats
# Odds and ends real suites use.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
}

@test "run -- passes options through" {
	run -- printf '%s\n' -n
	[ "$output" = -n ]
}

@test "run with a pipeline in bash -c and pipefail" {
	run bash -c 'set -o pipefail; false | true'
	[ "$status" -eq 1 ]
}

@test "bats::on_failure hook runs on failure" {
	false
}

bats::on_failure() {
	echo "on_failure: $BATS_TEST_DESCRIPTION status $1" >&3
}

@test "a trap inside a test" {
	trap 'echo trapped >"$BATS_TEST_TMPDIR/t"' USR1
	kill -USR1 $BASHPID
	[ "$(cat "$BATS_TEST_TMPDIR/t")" = trapped ]
	trap - USR1
}

@test "read loop over command output" {
	n=0
	while IFS=: read -r name _; do
		n=$((n + 1))
	done < <(printf 'a:1\nb:2\nc:3\n')
	[ "$n" -eq 3 ]
}

@test "printf -v and string ops" {
	printf -v s '%05d' 42
	[ "$s" = 00042 ]
	p=/a/b/c.txt
	[ "${p##*/}" = c.txt ]
	[ "${p%.*}" = /a/b/c ]
	[ "${p//\//:}" = :a:b:c.txt ]
}

@test "a test that fails in a subshell" {
	(
		cd "$BATS_TEST_TMPDIR"
		false
	)
}

@test "a test that fails in a loop" {
	for i in 1 2 3; do
		[ "$i" -lt 3 ]
	done
}

@test "a test with a case statement" {
	v=beta
	case $v in
	alpha) false ;;
	beta) true ;;
	*) false ;;
	esac
	helper_loaded=${helper_loaded:?}
}

@test "unset variable with set -u in a subshell" {
	run bash -c 'set -u; echo "$never_set_here"'
	[ "$status" -ne 0 ]
	[[ $output == *never_set_here* ]]
}

@test "stderr and stdout interleave in run" {
	run bash -c 'for i in 1 2 3; do echo "out $i"; echo "err $i" >&2; done'
	[ "${#lines[@]}" -eq 6 ]
	[ "${lines[1]}" = "err 1" ]
	[ "${lines[5]}" = "err 3" ]
}

@test "command not found is reported" {
	run -127 no_such_command_in_misc
}
