#!/bin/sh
# Builds qsh and qsh-assistant with the Go toolchain and installs them side by
# side; --uninstall removes them again. Run ./install.sh --help.
set -eu

usage() {
	cat <<'USAGE'
Usage: ./install.sh [--prefix DIR] [--system] [--uninstall [--force]] [--help]

Builds qsh from this checkout with the Go toolchain and installs it, with
qsh-assistant (the assistant, which qsh starts on the first ? line) beside it.

  --prefix DIR   install to DIR/bin (default: $PREFIX/bin when PREFIX is set,
                 else /usr/local/bin for root and ~/.local/bin for others)
  --system       also install to /usr/local/bin and add qsh to /etc/shells,
                 so it can be a login shell (needs root: use sudo)
  --uninstall    remove what an install with the same --prefix put in place:
                 the binaries and the /etc/shells line it added; refused while
                 an account's login shell is the qsh it would remove
  --force        with --uninstall: remove it all the same
  -h, --help     show this help

Running it again is safe: it rebuilds, replaces the binaries atomically and
never adds a line to /etc/shells twice. What it installed is listed in
DIR/share/qsh/installed, which --uninstall reads.

Environment: PREFIX as above; GOTOOLCHAIN=goX.Y.Z lets go download the
toolchain go.mod needs when the installed one is older; SYSTEM_BINDIR,
SHELLS_FILE and PASSWD_FILE replace /usr/local/bin, /etc/shells and the
account database (getent passwd) (for packaging and tests).
USAGE
}

die() {
	printf 'install.sh: %s\n' "$*" >&2
	exit 1
}

prefix=${PREFIX:-}
prefix_arg=
system=false
uninstall=false
force=false
while [ $# -gt 0 ]; do
	case $1 in
	--prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix=$2; prefix_arg=" --prefix $2"; shift ;;
	--prefix=*) prefix=${1#--prefix=}; prefix_arg=" --prefix $prefix" ;;
	--system) system=true ;;
	--uninstall) uninstall=true ;;
	--force) force=true ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument: $1 (see --help)" ;;
	esac
	shift
done

# Paths the user gave stay right after the cd below.
case ${PASSWD_FILE:-/} in /*) ;; *) PASSWD_FILE=$PWD/$PASSWD_FILE ;; esac
case $prefix in /* | '') ;; *) prefix=$PWD/$prefix ;; esac
cd "$(dirname "$0")"

if [ -z "$prefix" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		prefix=/usr/local
	else
		[ -n "${HOME:-}" ] || die "HOME is not set: give --prefix DIR"
		prefix=$HOME/.local
	fi
fi
bindir=$prefix/bin
manifest=$prefix/share/qsh/installed
sysbin=${SYSTEM_BINDIR:-/usr/local/bin}
shells=${SHELLS_FILE:-/etc/shells}

# The manifest has one line per thing installed: "file PATH" for a binary,
# "shells FILE LINE" for a line added to a shells file.

# accounts: the account database as NAME SHELL lines: PASSWD_FILE (a
# passwd(5) file) when set, else getent (which knows LDAP and SSSD users
# too), dscl on macOS, /etc/passwd.
accounts() {
	if [ -n "${PASSWD_FILE:-}" ]; then
		awk -F: '{ print $1, $7 }' "$PASSWD_FILE"
	elif command -v getent >/dev/null 2>&1; then
		getent passwd | awk -F: '{ print $1, $7 }'
	elif command -v dscl >/dev/null 2>&1; then
		dscl . -list /Users UserShell
	else
		awk -F: '{ print $1, $7 }' /etc/passwd
	fi
}

# login_users PATH: the accounts whose login shell is PATH (the same file,
# whatever path names it), each after a space, from the NAME SHELL lines
# in $accounts.
login_users() {
	printf '%s\n' "$accounts" | while read -r name sh; do
		[ -n "$sh" ] || continue
		if [ "$sh" = "$1" ] || { [ -e "$sh" ] && [ "$sh" -ef "$1" ]; }; then
			printf ' %s' "$name"
		fi
	done
}

# --- uninstall --------------------------------------------------------------
if $uninstall; then
	if [ ! -f "$manifest" ]; then
		die "nothing to uninstall: no $manifest (installed with another --prefix, or by hand?)"
	fi
	# A login shell that is gone locks its account out (su, ssh and the
	# console all fail to start it): refuse while any account has it.
	if ! $force; then
		accounts=$(accounts) ||
			die "not uninstalled: cannot read the accounts to see whose login shell qsh is (--force removes it anyway)"
		while read -r kind path rest; do
			[ "$kind" = file ] && [ "${path##*/}" = qsh ] || continue
			users=$(login_users "$path")
			[ -z "$users" ] && continue
			{
				printf 'install.sh: not uninstalled: %s is the login shell of:%s\n' "$path" "$users"
				printf 'Removing it would lock them out. Give them another shell first, e.g.\n'
				for u in $users; do
					printf '    sudo chsh -s /bin/bash %s\n' "$u"
				done
				printf 'or remove it anyway: ./install.sh --uninstall%s --force\n' "$prefix_arg"
			} >&2
			exit 1
		done <"$manifest"
	fi
	while read -r kind path rest; do
		case $kind in
		file)
			if [ -e "$path" ]; then
				rm -f "$path" || die "cannot remove $path (sudo ./install.sh --uninstall?)"
				echo "removed $path"
			fi
			;;
		shells)
			if [ -f "$path" ] && grep -qxF "$rest" "$path"; then
				[ -w "$path" ] || die "cannot edit $path: sudo ./install.sh --uninstall"
				# Rewrite it whole and swap it in, so that it is never half-written.
				grep -vxF "$rest" "$path" >"$path.qsh-new.$$" || true
				chmod 644 "$path.qsh-new.$$"
				mv -f "$path.qsh-new.$$" "$path" || die "cannot replace $path"
				echo "removed $rest from $path"
			fi
			;;
		esac
	done <"$manifest"
	rm -f "$manifest"
	rmdir "$prefix/share/qsh" 2>/dev/null || true
	echo "qsh is uninstalled (your ~/.qshrc, history and settings are left alone)"
	exit 0
fi

if [ ! -f go.mod ] || [ ! -d cmd/qsh ]; then
	die "run me from a qsh checkout (no go.mod or cmd/qsh beside install.sh)"
fi

# --- the Go toolchain -------------------------------------------------------
need=$(sed -n 's/^go \([0-9][0-9.]*\).*/\1/p' go.mod)
# Go's own installer puts it in /usr/local/go, which a new account's PATH lacks.
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
	PATH=$PATH:/usr/local/go/bin
fi
command -v go >/dev/null 2>&1 || die "Go is not installed (or not on PATH). qsh needs Go $need or newer: https://go.dev/dl/ or your package manager (e.g. apt-get install golang-go, if recent enough)."

# Compare against the local toolchain, unless the user asked go to fetch one.
case ${GOTOOLCHAIN:-local} in
local | auto | local+auto | path) have=$(GOTOOLCHAIN=local go env GOVERSION) ;;
*) have=$(go env GOVERSION) ;;
esac
have=${have#go}

# version_ge A B: is dotted version A >= B?
version_ge() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		na = split(a, x, /[^0-9]+/); nb = split(b, y, /[^0-9]+/)
		for (i = 1; i <= (na > nb ? na : nb); i++) {
			if (x[i] + 0 > y[i] + 0) exit 0
			if (x[i] + 0 < y[i] + 0) exit 1
		}
		exit 0
	}'
}
version_ge "$have" "$need" ||
	die "qsh needs Go $need or newer; $(command -v go) is Go $have. Install a newer Go (https://go.dev/dl/), or let go download it: GOTOOLCHAIN=go$need ./install.sh"

if $system && [ ! -w "$sysbin" ] && [ "$(id -u)" -ne 0 ]; then
	die "--system needs root to write $sysbin and $shells: sudo ./install.sh --system"
fi

# --- build ------------------------------------------------------------------
# A release tag names the version; otherwise cmd/qsh's own default stands
# (go build records the commit in the binary's build info anyway).
ldflags="-s -w"
version=
if command -v git >/dev/null 2>&1 && version=$(git describe --tags --dirty 2>/dev/null); then
	ldflags="$ldflags -X main.version=$version"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/qsh-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "building qsh${version:+ $version} with Go $have ..."
# Without cgo: a static binary starts ≈0.7 ms sooner, at every ssh command and
# git push; ~name for users of LDAP or SSSD goes through getent instead.
CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$tmp/" ./cmd/qsh ./cmd/qsh-assistant ||
	die "go build failed (see above)"

# note LINE: add LINE to the manifest once (written whole, then swapped in).
note() {
	mkdir -p "${manifest%/*}" || die "cannot create ${manifest%/*}"
	{
		[ -f "$manifest" ] && grep -vxF "$1" "$manifest"
		printf '%s\n' "$1"
	} >"$manifest.new.$$" || die "cannot write $manifest"
	mv -f "$manifest.new.$$" "$manifest" || die "cannot write $manifest"
}

# install_to DIR: copy the binaries into DIR atomically, so a running qsh
# keeps working and a half-written file is never seen. The assistant goes
# first: qsh looks for it next to itself on the first ? line.
install_to() {
	mkdir -p "$1" || die "cannot create $1"
	for name in qsh-assistant qsh; do
		cp "$tmp/$name" "$1/.$name.new.$$" || die "cannot write to $1"
		chmod 755 "$1/.$name.new.$$"
		mv -f "$1/.$name.new.$$" "$1/$name" || die "cannot replace $1/$name"
		note "file $1/$name"
		echo "installed $1/$name"
	done
}

install_to "$bindir"
login=$bindir/qsh

if $system; then
	if [ "$sysbin/qsh" != "$login" ]; then
		install_to "$sysbin"
	fi
	login=$sysbin/qsh
	if [ -f "$shells" ] && grep -qxF "$login" "$shells"; then
		echo "$login is already in $shells"
	else
		printf '%s\n' "$login" >>"$shells" || die "cannot append to $shells"
		note "shells $shells $login"
		echo "added $login to $shells"
	fi
fi

# --- what next --------------------------------------------------------------
"$login" --version 2>/dev/null || true
case ":${PATH:-}:" in
*":$bindir:"*) ;;
*)
	# Say the directory as the user would type it, so the line can be pasted.
	shown=$bindir
	case $bindir in "${HOME:-/nonexistent}"/*) shown=\$HOME${bindir#"$HOME"} ;; esac
	echo
	echo "$bindir is not on your PATH yet. To run qsh in this shell, run:"
	echo "    export PATH=\"$shown:\$PATH\""
	if [ "$bindir" = "${HOME:-/nonexistent}/.local/bin" ] && [ -f "$HOME/.profile" ] &&
		grep -q '\.local/bin' "$HOME/.profile"; then
		echo "(your ~/.profile adds it to PATH from your next login on)"
	else
		echo "and to keep it for your next logins:"
		echo "    echo 'export PATH=\"$shown:\$PATH\"' >>~/.profile"
	fi
	;;
esac
echo
echo "To make qsh your login shell:"
if ! $system; then
	echo "    echo $login | sudo tee -a /etc/shells    # or: sudo ./install.sh --system"
fi
echo "    chsh -s $login"
echo "To remove it: ./install.sh --uninstall$prefix_arg"
