#!/usr/bin/env bats
# setup, teardown, setup_file, teardown_file.

setup_file() {
	export FILE_FIXTURE="$BATS_FILE_TMPDIR/fixture"
	echo prepared > "$FILE_FIXTURE"
}

teardown_file() {
	rm -f "$FILE_FIXTURE"
}

setup() {
	counter=10
	work="$BATS_TEST_TMPDIR/work"
	mkdir -p "$work"
}

teardown() {
	rm -rf "$work"
}

@test "setup ran" {
	[ "$counter" -eq 10 ]
	[ -d "$work" ]
}

@test "setup_file exported a variable" {
	[ -n "$FILE_FIXTURE" ]
	[ "$(cat "$FILE_FIXTURE")" = prepared ]
}

@test "each test gets a fresh setup" {
	counter=$((counter + 1))
	[ "$counter" -eq 11 ]
}

@test "and again" {
	[ "$counter" -eq 10 ]
}

@test "files written in the test dir" {
	echo one > "$work/a"
	echo two >> "$work/a"
	run cat "$work/a"
	[ "${lines[1]}" = two ]
}
