# setup_suite.bash: bats runs it once around the whole suite.
setup_suite() {
	export SUITE_VALUE=from-suite
	echo "# setup_suite ran" >&3
}
teardown_suite() {
	echo "# teardown_suite ran" >&3
}
