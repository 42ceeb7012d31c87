#!/usr/bin/env bash
# Conformance: runs the shspec cases (../shared/shspec) against qsh, against
# gosh, mvdan/sh's example shell built at the version in go.mod, and against
# bash, and fails if qsh passes fewer cases than gosh in any file, counting
# only the cases bash passes: bash is the specification, and where a case
# wants what bash does not do (gosh is lenient where bash is strict), qsh
# does as bash. The files are those of shspec's broad list (FILES-broad.txt)
# and of its short one (FILES.txt).
#
#   .ci/conformance.sh              qsh vs gosh, on bash's cases
#   .ci/conformance.sh --bash       also show bash's scores, and qsh's share
#   .ci/conformance.sh -v           list the cases qsh fails and gosh passes
#   .ci/conformance.sh --files F    only the files F lists (one a line)
#
# SHSPEC_DIR overrides where shspec lives; QSH_BIN and GOSH_BIN use prebuilt
# binaries instead of building; CONFORMANCE_OUT keeps the JSON results there.
set -euo pipefail
cd "$(dirname "$0")/.."

with_bash=false
verbose=false
lists=()
while (($#)); do
	case $1 in
	--bash) with_bash=true ;;
	-v | --verbose) verbose=true ;;
	--files)
		shift
		lists+=("${1:?--files needs a file}")
		;;
	-h | --help)
		sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "conformance.sh: unknown argument: $1" >&2
		exit 2
		;;
	esac
	shift
done

shspec=${SHSPEC_DIR:-../shared/shspec}
if [[ ! -f $shspec/run.py ]]; then
	echo "conformance.sh: no shspec at $shspec (set SHSPEC_DIR)" >&2
	exit 2
fi
shspec=$(cd "$shspec" && pwd)
if ((${#lists[@]} == 0)); then
	for l in FILES-broad.txt FILES.txt; do
		[[ -f $shspec/$l ]] && lists+=("$shspec/$l")
	done
fi
# Each file once, in the lists' order.
mapfile -t specs < <(cat "${lists[@]}" | awk 'NF && !seen[$0]++ { print "spec/" $0 }')
if ((${#specs[@]} == 0)); then
	echo "conformance.sh: no spec files listed in ${lists[*]}" >&2
	exit 2
fi
command -v python3 >/dev/null || {
	echo "conformance.sh: python3 is needed to run shspec" >&2
	exit 2
}

out=${CONFORMANCE_OUT:-}
if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/qsh-conformance.XXXXXX")
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

qsh=${QSH_BIN:-}
if [[ -z $qsh ]]; then
	qsh=$out/qsh
	CGO_ENABLED=0 go build -o "$qsh" ./cmd/qsh # as install.sh builds it
fi
[[ $qsh == /* ]] || qsh=$PWD/$qsh
gosh=${GOSH_BIN:-}
if [[ -z $gosh ]]; then
	gosh=$out/gosh
	go build -o "$gosh" mvdan.cc/sh/v3/cmd/gosh # at the version go.mod requires
fi
[[ $gosh == /* ]] || gosh=$PWD/$gosh

# run NAME SHELL: one shspec run; its own per-file report goes to a log, as
# run.py exits non-zero whenever any case fails, which is expected here.
# A case gets 30 s, not shspec's 5, scaled as the Go tests' timeouts are
# (QSH_TEST_TIMEOUT_SCALE): on a busy machine a case qsh passes timed out,
# and qsh fell below gosh. None takes a second on a quiet one.
case_timeout=$(awk -v s="${QSH_TEST_TIMEOUT_SCALE:-1}" 'BEGIN { print 30 * s }')
run() {
	(cd "$shspec" && python3 run.py --shell "$2" --timeout "$case_timeout" --json "$out/$1.json" "${specs[@]}") >"$out/$1.log" 2>&1 || true
	if [[ ! -s $out/$1.json ]]; then
		echo "conformance.sh: shspec produced no results for $1:" >&2
		cat "$out/$1.log" >&2
		return 1
	fi
}

# Two cores: run the shells side by side.
start=$SECONDS
pids=()
run qsh "$qsh" & pids+=($!)
run gosh "$gosh" & pids+=($!)
run bash bash & pids+=($!)
for p in "${pids[@]}"; do
	wait "$p"
done

echo "conformance: ${#specs[@]} files, $((SECONDS - start)) s"
python3 - "$out" "$verbose" "$with_bash" <<'EOF'
import json, sys, os
out, verbose, with_bash = sys.argv[1], sys.argv[2] == "true", sys.argv[3] == "true"
shells = ["qsh", "gosh", "bash"]
res = {s: json.load(open(os.path.join(out, s + ".json"))) for s in shells}
files = []
for r in res["gosh"] + res["qsh"]:
    if r["file"] not in files:
        files.append(r["file"])

def score(s, f):
    rs = [r for r in res[s] if r["file"] == f]
    return sum(r["pass"] for r in rs), len(rs)

bash_pass = {(r["file"], r["line"]) for r in res["bash"] if r["pass"]}

def bash_score(s, f):
    return sum(r["pass"] for r in res[s] if r["file"] == f and (r["file"], r["line"]) in bash_pass)

worse = []
print("%-26s %9s %9s%s" % ("file", "qsh", "gosh", "      bash" if with_bash else ""))
tot = {s: [0, 0] for s in shells}
for f in files:
    row = {}
    for s in shells:
        p, n = score(s, f)
        row[s] = p
        tot[s][0] += p
        tot[s][1] += n
    n = score("gosh", f)[1]
    mark = ""
    if bash_score("qsh", f) < bash_score("gosh", f):
        worse.append(f)
        mark = "  <- qsh below gosh on bash's cases"
    print("%-26s %5d/%-3d %5d/%-3d%s%s" % (f, row["qsh"], n, row["gosh"], n,
          ("  %5d/%-3d" % (row["bash"], n)) if with_bash else "", mark))
print("%-26s %5d/%-3d %5d/%-3d%s" % ("total", tot["qsh"][0], tot["qsh"][1], tot["gosh"][0], tot["gosh"][1],
      ("  %5d/%-3d" % tuple(tot["bash"])) if with_bash else ""))
if with_bash and tot["bash"][0]:
    print("qsh passes %.1f %% of the cases bash passes, gosh %.1f %%" % (
        100 * tot["qsh"][0] / tot["bash"][0], 100 * tot["gosh"][0] / tot["bash"][0]))

if verbose:
    gosh_pass = {(r["file"], r["case"]) for r in res["gosh"] if r["pass"]}
    for r in res["qsh"]:
        if not r["pass"] and (r["file"], r["case"]) in gosh_pass and (r["file"], r["line"]) in bash_pass:
            print("qsh fails, gosh passes: %s:%d: %s" % (r["file"], r["line"], r["case"]))
if worse:
    print("conformance: FAIL: qsh scores below gosh, on the cases bash passes, in " + ", ".join(worse))
    sys.exit(1)
print("conformance: ok, qsh scores at least gosh's in every file, on the cases bash passes")
EOF
