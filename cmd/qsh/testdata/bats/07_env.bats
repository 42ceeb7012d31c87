#!/usr/bin/env bats

@test "BATS_TEST_DIRNAME is this file's dir" {
	[ -f "$BATS_TEST_DIRNAME/07_env.bats" ]
	[ "$BATS_TEST_FILENAME" = "$BATS_TEST_DIRNAME/07_env.bats" ]
}

@test "BATS_TMPDIR exists" {
	[ -d "$BATS_TMPDIR" ]
	[ -d "$BATS_RUN_TMPDIR" ]
	[ -d "$BATS_FILE_TMPDIR" ]
	[ -d "$BATS_TEST_TMPDIR" ]
}

@test "BATS_TEST_NAME is encoded" {
	[[ $BATS_TEST_NAME == test_BATS-2d5fTEST-2d5fNAME_is_encoded ]]
}

@test "BATS_TEST_DESCRIPTION is the name" {
	[ "$BATS_TEST_DESCRIPTION" = "BATS_TEST_DESCRIPTION is the name" ]
}

@test "BATS_TEST_NUMBER counts" {
	[ "$BATS_TEST_NUMBER" -eq 5 ]
	[ "$BATS_SUITE_TEST_NUMBER" -ge 5 ]
}

@test "BATS_VERSION is set" {
	[[ $BATS_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "BATS_TEST_NAMES lists this file's tests" {
	[ "${#BATS_TEST_NAMES[@]}" -eq 8 ]
	[[ ${BATS_TEST_NAMES[0]} == test_BATS-5fTEST-5fDIRNAME_is_this_file-27s_dir ]]
}

@test "the test runs in a subshell of bats" {
	[ "$BASH_SUBSHELL" -ge 0 ]
	[[ ${FUNCNAME[0]} == test_the_test_runs_in_a_subshell_of_bats ]]
	[[ ${BASH_SOURCE[0]} == */07_env.bats* || ${BASH_SOURCE[0]} == */bats-run-* ]]
}
