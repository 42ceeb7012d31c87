# Loaded by several files with `load test_helper`.
helper_loaded=yes

greet() {
	echo "hello, $1"
}

assert_equal() {
	if [[ $1 != "$2" ]]; then
		echo "expected: $2" >&2
		echo "actual:   $1" >&2
		return 1
	fi
}

fail_with() {
	echo "$*" >&2
	return 1
}
