#!/usr/bin/env bats
# Shell features inside tests.

@test "here-doc" {
	run cat <<END
line one
  line two $((1 + 1))
END
	[ "${lines[0]}" = "line one" ]
	[ "${lines[1]}" = "  line two 2" ]
}

@test "quoted here-doc and here-string" {
	v=$(cat <<'END'
$HOME stays
END
)
	[ "$v" = '$HOME stays' ]
	read -r a b <<< "x y"
	[ "$a$b" = xy ]
}

@test "pipes and subshells" {
	n=$(printf '%s\n' 1 2 3 | wc -l)
	[ "$n" -eq 3 ]
	(cd / && [ "$PWD" = / ])
	[ "$PWD" != / ] || [ "$BATS_TEST_DIRNAME" = / ]
}

@test "process substitution" {
	mapfile -t got < <(printf '%s\n' b a | sort)
	[ "${got[*]}" = "a b" ]
	diff <(echo same) <(echo same)
}

@test "arrays and associative arrays" {
	a=(one two three)
	declare -A m=([k]=v [x]=y)
	[ "${#a[@]}" -eq 3 ]
	[ "${m[k]}" = v ]
	[ "${a[-1]}" = three ]
}

@test "set -e stops at the first failure" {
	f() { echo before; false; echo after; }
	run bash -c "set -e; $(declare -f f); f"
	[ "$status" -eq 1 ]
	[ "$output" = before ]
}

@test "set -e is off in conditions" {
	if false; then echo no; fi
	false || true
	! false
	x=$(false) || true
}

@test "a failure in the middle of a test" {
	a=1
	[ "$a" -eq 1 ]
	(( a == 2 ))
	echo unreachable
}

@test "[[ ]] pattern and regex asserts" {
	s="version 1.2.3-rc1"
	[[ $s == version* ]]
	[[ $s =~ ([0-9]+)\.([0-9]+) ]]
	[[ ${BASH_REMATCH[2]} == 2 ]]
	[[ ! $s == *beta* ]]
	[[ -n $s && ${#s} -gt 5 ]]
}

@test "exec fds in a test" {
	exec 4>"$BATS_TEST_TMPDIR/fd4"
	echo via-fd >&4
	exec 4>&-
	[ "$(cat "$BATS_TEST_TMPDIR/fd4")" = via-fd ]
}

@test "local variables and functions" {
	outer() { local v=inner; inner; }
	inner() { echo "$v"; }
	v=global
	[ "$(outer)" = inner ]
	[ "$v" = global ]
}
