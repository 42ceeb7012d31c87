setup_file() {
	false
}
@test "setup_file failed" {
	true
}
