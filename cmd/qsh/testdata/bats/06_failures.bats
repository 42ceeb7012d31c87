#!/usr/bin/env bats
# Deliberate failures: the trace must name the file and line.

@test "a false test fails" {
	true
	false
	echo never
}

@test "a failing comparison" {
	x=1
	[ "$x" -eq 2 ]
}

@test "a failing [[ ]]" {
	name=alpha
	[[ $name == beta* ]]
}

helper_that_fails() {
	local v=$1
	[ "$v" = ok ]
}

@test "failure inside a function" {
	helper_that_fails ok
	helper_that_fails bad
}

@test "a failing command in a pipeline's last stage" {
	echo abc | grep -q xyz
}

@test "exit status of a nonexistent command" {
	run no_such_command_anywhere
	[ "$status" -eq 127 ]
	no_such_command_anywhere
}

@test "output of a failing test is shown" {
	echo "some output"
	echo "to stderr" >&2
	return 1
}

@test "teardown still runs after a failure" {
	touch "$BATS_FILE_TMPDIR/teardown-marker-before"
	false
}

teardown() {
	if [[ $BATS_TEST_DESCRIPTION == "teardown still runs after a failure" ]]; then
		echo "teardown ran" >&3
	fi
}
