#!/usr/bin/env bats

@test "skip without a reason" {
	skip
	false
}

@test "skip with a reason" {
	skip "not today"
	false
}

@test "conditional skip" {
	if [[ -z ${NEVER_SET_VARIABLE:-} ]]; then
		skip "NEVER_SET_VARIABLE is unset"
	fi
	false
}

@test "not skipped" {
	true
}

setup() {
	if [[ $BATS_TEST_DESCRIPTION == "skipped in setup" ]]; then
		skip "from setup"
	fi
}

@test "skipped in setup" {
	false
}
