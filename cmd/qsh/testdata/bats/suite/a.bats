bats_require_minimum_version 1.5.0
@test "suite value" {
	[ "$SUITE_VALUE" = from-suite ]
}
@test "bats_pipe" {
	run bats_pipe printf 'a\nb\n' \| grep b
	[ "$output" = b ]
}
@test "bats_pipe failing" {
	run -1 bats_pipe printf 'a\n' \| grep z
}
# bats test_tags=fast
@test "tagged fast" {
	true
}
@test "retries" {
	BATS_TEST_RETRIES=2
	[ "$BATS_TEST_TRY_NUMBER" -eq 3 ]
}
@test "failing teardown" {
	true
}
teardown() {
	if [[ $BATS_TEST_DESCRIPTION == "failing teardown" ]]; then
		false
	fi
}
