#!/usr/bin/env bats
# Run with --filter 'kept' by the test too.

@test "kept: first" {
	true
}

@test "dropped: second" {
	false
}

@test "kept: third" {
	[ 1 -lt 2 ]
}

@test "dropped: fourth" {
	true
}

# bats:focus would narrow the whole suite; tags are harmless.
# bats test_tags=slow,network
@test "kept: tagged" {
	[ "${BATS_TEST_TAGS[*]}" = "network slow" ] || [ "${BATS_TEST_TAGS[*]}" = "slow network" ]
}
