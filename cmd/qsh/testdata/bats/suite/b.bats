setup_file() {
	skip "whole file skipped"
}
@test "never runs" {
	false
}
