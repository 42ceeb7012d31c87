#!/usr/bin/env bats
# bats-assert and bats-support, as most projects use bats (TestBatsSuite
# sets BATS_LIB_PATH to where npm installed them).

setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
}

@test "assert_success and assert_output" {
	run echo "hello world"
	assert_success
	assert_output "hello world"
	assert_output --partial "lo wo"
	assert_output --regexp '^h.*d$'
}

@test "assert_failure with a status" {
	run bash -c 'exit 3'
	assert_failure 3
}

@test "assert_line and refute_line" {
	run printf 'one\ntwo\nthree\n'
	assert_line --index 1 two
	assert_line --partial hre
	refute_line four
}

@test "assert and refute" {
	assert [ 1 -lt 2 ]
	refute [ 2 -lt 1 ]
	assert_equal "$(echo a)" a
	assert_not_equal a b
}

@test "assert_output fails with a diff" {
	run echo "actual text"
	assert_output "expected text"
}

@test "assert_line fails" {
	run printf 'a\nb\n'
	assert_line --index 0 b
}

@test "assert_success fails on a failing command" {
	run bash -c 'echo "some error" >&2; exit 2'
	assert_success
}

@test "refute_output --partial fails" {
	run echo "secret token here"
	refute_output --partial token
}

@test "assert_regex and assert_output with stdin" {
	assert_regex "abc123" '^[a-z]+[0-9]+$'
	echo "from stdin" | assert_output - <<<"x" || true
	run echo multi
	assert_output - <<EOT
multi
EOT
}

@test "fail from bats-support" {
	fail "custom failure message"
}

@test "batslib_err with multi-line output" {
	run printf 'line1\nline2\nline3\n'
	assert_output "line1
lineX
line3"
}

@test "assert_equal fails with multi-line values" {
	assert_equal "$(printf 'a\nb')" "$(printf 'a\nc')"
}
