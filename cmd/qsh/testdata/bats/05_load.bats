#!/usr/bin/env bats

load test_helper

@test "the helper was loaded" {
	[ "$helper_loaded" = yes ]
}

@test "a helper function" {
	run greet world
	[ "$output" = "hello, world" ]
}

@test "assert_equal passes" {
	assert_equal "$(greet x)" "hello, x"
}

@test "assert_equal fails with a message" {
	assert_equal "$(greet x)" "hello, y"
}

@test "load inside a test" {
	load test_helper.bash
	fail_with "from the helper"
}

@test "bats_load_library is absent for a missing name" {
	run bats_load_library no-such-library-here
	[ "$status" -ne 0 ]
}
