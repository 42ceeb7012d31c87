#!/usr/bin/env bash
# Measures qsh against the speed bar of issue 2 and prints a table:
#   start-up   `qsh -c true` vs gosh (and bash), in the same run: qsh within 1.25x of gosh
#   prompt     time to the first prompt on a pty with a 10,000-entry history: <= 5 ms
#              (also without the capture proxy, and with an empty history)
#   memory     memory at an idle prompt: <= 10 MB for the session's whole process
#              tree (PSS: with capture on, qsh runs twice, proxy and shell, sharing
#              the binary's pages), at the first prompt and after a command line;
#              also the VmRSS of the process the terminal started
#   assistant  what the first `?` adds: starting qsh-assistant (its --config),
#              and both binaries' sizes
#   sandbox    what a confined `true` costs over a plain one (issue 23: <= 5 ms),
#              the session's first (its jail prepared) and the next; "-" where
#              the kernel has no Landlock
# Start-up uses hyperfine when installed (apt-get install hyperfine), else the
# Go benchmark BenchmarkStartupRatio. Figures are measurements, not a test:
# the script fails only when something cannot be built or run.
#
#   bench/run.sh [-n RUNS]      RUNS: start-up runs per shell (default 300)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=300
while [[ $# -gt 0 ]]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	-h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
	esac
done

out=$(mktemp -d "${TMPDIR:-/tmp}/qsh-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

echo "building qsh, qsh-assistant and gosh (gosh at the mvdan.cc/sh version in go.mod) ..." >&2
# As install.sh builds them; gosh the same way, for a fair comparison.
export CGO_ENABLED=0
go build -trimpath -ldflags "-s -w" -o "$out/" ./cmd/qsh ./cmd/qsh-assistant
go build -trimpath -ldflags "-s -w" -o "$out/gosh" mvdan.cc/sh/v3/cmd/gosh
export BENCH_QSH=$out/qsh BENCH_GOSH=$out/gosh

# --- start-up -----------------------------------------------------------------
if command -v hyperfine >/dev/null; then
	tool="hyperfine, $runs runs each"
	hyperfine -N --warmup 20 --runs "$runs" --style none --export-csv "$out/startup.csv" \
		-n qsh "$out/qsh -c true" -n gosh "$out/gosh -c true" -n bash "bash -c true" \
		-n assistant "$out/qsh-assistant --config" >/dev/null 2>&1
	mean() { awk -F, -v n="$1" '$1 == n { printf "%.2f", $2 * 1000 }' "$out/startup.csv"; }
	q=$(mean qsh) g=$(mean gosh) b=$(mean bash) a=$(mean assistant)
else
	tool="go test -bench StartupRatio, $runs runs each (hyperfine not installed)"
	go test -run '^$' -bench 'StartupRatio$' -benchtime "${runs}x" ./bench/ >"$out/startup.txt"
	field() { awk -v u="$1" '/^BenchmarkStartupRatio/ { for (i = 1; i < NF; i++) if ($(i+1) == u) printf "%.2f", $i / 1000 }' "$out/startup.txt"; }
	q=$(field qsh-µs/op) g=$(field gosh-µs/op) b=- a=-
	command -v bash >/dev/null && b=$(
		go test -run '^$' -bench 'Startup/bash$' -benchtime "${runs}x" ./bench/ |
			awk '/^BenchmarkStartup\/bash/ { printf "%.2f", $3 / 1e6 }'
	)
fi
ratio=$(awk -v q="$q" -v g="$g" 'BEGIN { printf "%.2f", q / g }')

# --- first prompt and idle memory, through a pty --------------------------------
{
	go test -run '^$' -bench 'FirstPrompt' -benchtime 20x ./bench/ &&
		go test -run '^$' -bench 'IdleMemory' -benchtime 5x ./bench/
} >"$out/pty.txt" 2>&1 || {
	cat "$out/pty.txt" >&2
	exit 1
}
metric() { awk -v b="$1" -v u="$2" '$1 ~ "^"b"(-[0-9]+)?$" { for (i = 1; i < NF; i++) if ($(i+1) == u) printf "%.2f", $i }' "$out/pty.txt"; }
prompt() { metric "BenchmarkFirstPrompt/$1" ms-to-prompt; }
memory() { metric "BenchmarkIdleMemory/$1" "$2"; }
p_qsh=$(prompt qsh) p_off=$(prompt qsh-nocapture) p_empty=$(prompt qsh-nohistory) p_gosh=$(prompt gosh)
rc() { metric BenchmarkFirstPromptBashrc "$1"; }
rc_qsh=$(rc qsh-ms-to-prompt) rc_bash=$(rc bash-ms-to-prompt) rc_diff=$(rc qsh-bash-ms)
m_qsh=$(memory qsh PSS-MB) m_off=$(memory qsh-nocapture PSS-MB) m_gosh=$(memory gosh PSS-MB)
u_qsh=$(memory qsh used-PSS-MB) u_off=$(memory qsh-nocapture used-PSS-MB)
u_empty=$(memory qsh-nohistory used-PSS-MB) u_gosh=$(memory gosh used-PSS-MB)
r_qsh=$(memory qsh RSS-MB) r_gosh=$(memory gosh RSS-MB)

# --- the sandbox ----------------------------------------------------------------
# Its jail is the test binary of cmd/qsh itself, which starts as qsh does.
go test -run '^$' -bench 'ConfinedExtra/(prepared|next)$' -benchtime 20x ./cmd/qsh >"$out/sandbox.txt" 2>&1 || {
	cat "$out/sandbox.txt" >&2
	exit 1
}
extra() {
	awk -v b="$1" '$1 ~ "^BenchmarkConfinedExtra/"b"(-[0-9]+)?$" { for (i = 1; i < NF; i++) if ($(i+1) == "extra-ms") printf "%.2f", $i }' "$out/sandbox.txt"
}
s_first=$(extra prepared) s_next=$(extra next)

verdict() { awk -v v="$1" -v max="$2" 'BEGIN { print (v + 0 <= max + 0) ? "ok" : "OVER" }'; }

printf '\nqsh speed (%s; %s, %d cores)\n\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(uname -m)" "$(nproc)"
printf '%-44s %10s %10s %10s   %s\n' "measure" "qsh" "gosh" "bash" "bar"
printf '%-44s %7s ms %7s ms %7s ms   %s\n' "qsh -c true, mean" "$q" "$g" "$b" \
	"<= 1.25x gosh: ${ratio}x $(verdict "$ratio" 1.25)"
printf '%-44s %7s ms %7s ms %10s   %s\n' "first prompt, 10,000-entry history" "$p_qsh" "$p_gosh" "-" \
	"<= 5 ms: $(verdict "$p_qsh" 5)"
printf '%-44s %7s ms %10s %10s\n' "  the same, QSH_CAPTURE=off (one process)" "$p_off" "-" "-"
printf '%-44s %7s ms %10s %10s\n' "  the same, empty history" "$p_empty" "-" "-"
printf '%-44s %7s ms %10s %7s ms   %s\n' "first prompt, Debian's rc (bash-completion)" "${rc_qsh:--}" "-" "${rc_bash:--}" \
	"<= bash + 5 ms: ${rc_diff:--} ms more $([[ -n $rc_diff ]] && verdict "$rc_diff" 5 || echo -)"
printf '%-44s %7s MB %7s MB %10s   %s\n' "idle PSS of the session, 10,000 entries" "$m_qsh" "$m_gosh" "-" \
	"<= 10 MB: $(verdict "$m_qsh" 10)"
printf '%-44s %7s MB %7s MB %10s   %s\n' "  the same after a command line" "$u_qsh" "$u_gosh" "-" \
	"<= 10 MB: $(verdict "$u_qsh" 10)"
printf '%-44s %7s MB %10s %10s\n' "  QSH_CAPTURE=off (one process)" "$m_off" "-" "-"
printf '%-44s %7s MB %10s %10s\n' "  QSH_CAPTURE=off, after a command line" "$u_off" "-" "-"
printf '%-44s %7s MB %10s %10s\n' "  empty history, after a command line" "$u_empty" "-" "-"
printf '%-44s %7s MB %7s MB %10s\n' "idle VmRSS of the terminal's process" "$r_qsh" "$r_gosh" "-"
size() { awk -v s="$(wc -c <"$1")" 'BEGIN { printf "%.1f", s / 1048576 }'; }
printf '%-44s %7s MB %7s MB %10s\n' "binary size" "$(size "$out/qsh")" "$(size "$out/gosh")" "-"
printf '%-44s %7s ms %10s %10s   %s\n' "first ?: qsh-assistant start" "$a" "-" "-" \
	"once a session, $(size "$out/qsh-assistant") MB"
printf '%-44s %7s ms %10s %10s   %s\n' "first confined command, over a plain start" "${s_first:--}" "-" "-" \
	"<= 5 ms: $([[ -n $s_first ]] && verdict "$s_first" 5 || echo -)"
printf '%-44s %7s ms %10s %10s\n' "  the next ones" "${s_next:--}" "-" "-"
printf '\nstart-up by %s; prompt by go test -bench (median of 20 runs), memory (5 runs, the most), through a pty.\n' "$tool"
printf 'sandbox: go test -bench ConfinedExtra (median of 20 differences with a plain start in the same iteration).\n'
printf 'PSS: the shell process and its descendants, shared pages split among them (/proc/PID/smaps_rollup).\n'
