#!/usr/bin/env bash
# The one test command: installs what the tests need, then runs them all —
# gofmt, go vet, staticcheck, the race-enabled test suite (pty end-to-end
# tests included), and the shell conformance comparison against gosh.
set -euo pipefail
cd "$(dirname "$0")"

# The hooks tests drive the tools whose lines people paste into their rc
# file (cmd/qsh/hooks_e2e_test.go); git brings git-sh-prompt, fzf its
# key-bindings.bash, autojump its prompt hook. The assistant's and the
# sandbox's tests run make.
missing=()
for program in direnv zoxide fzf git make autojump; do
	command -v "$program" >/dev/null || missing+=("$program")
done
# The end-to-end tests run python3, vim, less and ps/pgrep on a terminal,
# and node for the MCP server below; the sandbox's attack the user's real
# tmux and ssh-agent, go through its proxy with curl, build a venv, and
# run jails without user namespaces (unshare) and as nobody (setpriv);
# script runs in capture's benchmarks, perl in the fzf tests, cc builds
# bash's test suite's helpers: program:package.
for pair in python3:python3 vim:vim less:less pgrep:procps node:nodejs npm:npm tmux:tmux ssh-agent:openssh-client \
	curl:curl cc:gcc unshare:util-linux setpriv:util-linux perl:perl script:bsdutils; do
	command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
# Tab through bash-completion (cmd/qsh/complete_e2e_test.go, shell's Tab
# tests and benchmarks): a library, not a program.
[ -f /usr/share/bash-completion/bash_completion ] || missing+=(bash-completion)
# liquidprompt, a whole prompt framework in bash (hooks_e2e_test.go).
[ -f /usr/share/liquidprompt/liquidprompt ] || missing+=(liquidprompt)
# A Debian user's rc files as shipped (cmd/qsh/distro_e2e_test.go): hstr,
# command-not-found's handler and vte's prompt script.
command -v hstr >/dev/null || missing+=(hstr)
[ -x /usr/lib/command-not-found ] || missing+=(command-not-found)
[ -f /etc/profile.d/vte-2.91.sh ] || missing+=(libvte-2.91-common)
# Debian's bash programs run with qsh as bash (cmd/qsh/debprog_test.go):
# program:package, without what they recommend (imagemagick, zenity, …).
bare=()
for pair in neofetch:neofetch screenfetch:screenfetch pass:pass quilt:quilt bats:bats dehydrated:dehydrated \
	wg-quick:wireguard-tools zramswap:zram-tools byobu-ulevel:byobu backupninja:backupninja debmany:debian-goodies \
	git-extras:git-extras todo-txt:todotxt-cli yadm:yadm git-secret:git-secret libtool:libtool-bin; do
	command -v "${pair%%:*}" >/dev/null || [ -x "/usr/sbin/${pair%%:*}" ] || bare+=("${pair#*:}")
done
# python3 -m venv (the sandbox's fresh-account build) is a package of its own.
python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
if [ $((${#missing[@]} + ${#bare[@]})) -gt 0 ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "test.sh: installing ${missing[*]} ${bare[*]}"
		apt-get update -qq
		if [ ${#missing[@]} -gt 0 ]; then
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
		fi
		if [ ${#bare[@]} -gt 0 ]; then
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${bare[@]}" >/dev/null
		fi
	else
		echo "test.sh: not root, so not installing ${missing[*]} ${bare[*]}: their tests skip"
	fi
fi
# As root everything above is installed, so a test that finds a tool
# missing fails instead of skipping (internal/needs): CI runs as root,
# and a broken set-up must not shrink its run unseen.
if [ "$(id -u)" = 0 ]; then
	export QSH_TEST_STRICT=${QSH_TEST_STRICT:-1}
fi

# The MCP end-to-end tests drive a real MCP server nobody here wrote.
npm_prefix=${QSH_TEST_NPM_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/qsh-test/npm}
if command -v npm >/dev/null && ! [ -f "$npm_prefix/node_modules/@modelcontextprotocol/server-everything/package.json" ]; then
	echo "test.sh: installing @modelcontextprotocol/server-everything into $npm_prefix"
	npm install --silent --no-audit --no-fund --prefix "$npm_prefix" \
		@modelcontextprotocol/server-everything@2026.8.31
fi
# TestBatsSuite (cmd/qsh) runs bats-core with qsh standing in for bash.
if command -v npm >/dev/null && ! [ -f "$npm_prefix/node_modules/bats-assert/package.json" ]; then
	echo "test.sh: installing bats into $npm_prefix"
	npm install --silent --no-audit --no-fund --prefix "$npm_prefix" \
		bats@1.13.0 bats-support@0.3.0 bats-assert@2.2.4
fi
export QSH_TEST_NPM_PREFIX=$npm_prefix
# TestBashSuiteAgainstBash (cmd/qsh) runs bash's own test suite with qsh
# standing in for bash: Debian's source of the bash installed here, pinned
# by its checksum. Without it the test skips, so a failed download is said.
suite=${XDG_CACHE_HOME:-$HOME/.cache}/qsh-test/bash-5.2.15
if ! [ -f "$suite/tests/run-all" ]; then
	tarball=$(mktemp)
	if curl -fsSL --retry 3 -o "$tarball" http://deb.debian.org/debian/pool/main/b/bash/bash_5.2.15.orig.tar.gz &&
		echo "7a315bc0e9d90713159e4390ec1096a41e4f33cd8cc3d1a749a8e5ad56600f51  $tarball" | sha256sum -c --quiet; then
		mkdir -p "$(dirname "$suite")"
		tar -xzf "$tarball" -C "$(dirname "$suite")"
	else
		echo "test.sh: could not fetch bash 5.2.15's source: TestBashSuiteAgainstBash skips"
	fi
	rm -f "$tarball"
fi
[ -f "$suite/tests/run-all" ] && export QSH_TEST_BASH_SUITE=$suite

unformatted=$(gofmt -s -l .)
if [ -n "$unformatted" ]; then
	echo "test.sh: gofmt -s would change:" "$unformatted"
	exit 1
fi
go vet ./...
# Pinned, and run from the module proxy so that it stays out of go.mod.
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
GOOS=darwin go vet ./... # qsh targets macOS too; CI runs on Linux
# go test's own 10-minute limit per package is a hang detector, not a
# speed bar: cmd/qsh takes about 140 s on an idle 2-core machine but went
# past 600 s at a load average of 16, so the net is widened, well inside
# CI's 90 minutes.
go test -race -count=1 -timeout 30m ./...
.ci/conformance.sh
echo "test.sh: all passed in ${SECONDS}s"
