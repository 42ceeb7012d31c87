#!/usr/bin/env bats
# run -N and run !, bats_require_minimum_version.

bats_require_minimum_version 1.5.0

@test "run -1 expects status 1" {
	run -1 false
}

@test "run -3 expects status 3" {
	run -3 bash -c 'exit 3'
	[ "$output" = "" ]
}

@test "run ! expects failure" {
	run ! grep -q nothere /dev/null
}

@test "run -0 expects success" {
	run -0 true
}

@test "run -2 fails on the wrong status" {
	run -2 bash -c 'echo wrong; exit 1'
}

@test "run ! fails when the command succeeds" {
	run ! true
}

@test "status survives across runs" {
	run -1 false
	run -0 echo again
	[ "$status" -eq 0 ]
	[ "$output" = again ]
}
