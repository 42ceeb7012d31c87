#!/usr/bin/env bats
# `run`: status, output and lines.

@test "run captures status and output" {
	run echo hello
	[ "$status" -eq 0 ]
	[ "$output" = hello ]
}

@test "run captures a failing status" {
	run bash -c 'echo oops; exit 3'
	[ "$status" -eq 3 ]
	[ "$output" = oops ]
}

@test "run splits lines" {
	run printf 'a\nb b\n\nc\n'
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = a ]
	[ "${lines[1]}" = "b b" ]
	[ "${lines[2]}" = c ]
}

@test "run a function" {
	f() { echo "in f: $*"; return 4; }
	run f x y
	[ "$status" -eq 4 ]
	[ "$output" = "in f: x y" ]
}

@test "run merges stderr into output" {
	run bash -c 'echo out; echo err >&2'
	[ "$output" = "out
err" ]
}

@test "run --separate-stderr" {
	bats_require_minimum_version 1.5.0
	run --separate-stderr bash -c 'echo out; echo err >&2'
	[ "$output" = out ]
	[ "$stderr" = err ]
	[ "${stderr_lines[0]}" = err ]
}

@test "run keeps empty lines with --keep-empty-lines" {
	bats_require_minimum_version 1.5.0
	run --keep-empty-lines printf 'a\n\nb\n'
	[ "${#lines[@]}" -eq 3 ]
	[ -z "${lines[1]}" ]
}

@test "run with a pipeline through bash -c" {
	run bash -c 'printf "%s\n" c a b | sort | head -n 2'
	[ "${lines[*]}" = "a b" ]
}
