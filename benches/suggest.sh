#!/usr/bin/env bash
# `tinylingo suggest` over the assistants' session stores (issue 27's budgets): a cold scan of
# 1,000 sessions (about 200 MB, budget 5 s on 2 cores), a rescan with nothing new (budget
# 50 ms), and peak memory for 100 against 1,000 sessions (streaming: it must not grow with
# the transcripts). The sessions are the labeled corpus's cases in the four real formats
# (tests/learning/make_corpus.py --bench), each padded with tool output to the size asked.
#
# Usage:  benches/suggest.sh [sessions] [KB of tool output per session]   (default 1000 130;
#         the formats repeat a tool output in two records, so 130 KB gives ~200 MB in all)
# Env:    RUNS=N   timed runs of each measurement (default 5; each cold run starts from an
#                  empty store, so every file is read in full)
#         TINYLINGO_BIN=path   a binary already built (release) instead of building one
#
# Quote medians: absolute times drift on shared machines. `tinylingo --version` is timed as
# the no-op floor (process start and exit).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
kb=${2:-130}
runs=${RUNS:-5}

if [ -z "${TINYLINGO_BIN:-}" ]; then
  cargo build --release --quiet --bin tinylingo
fi
bin=${TINYLINGO_BIN:-$PWD/target/release/tinylingo}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ms() { awk -v us="$1" 'BEGIN { printf "%.1f ms", us / 1000 }'; }
# Median wall time in microseconds of "$@" over $runs runs, each after `prepare`.
timed() {
  local prepare=$1
  shift
  for _ in $(seq "$runs"); do
    $prepare
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median
}
fresh() { rm -rf "$work/store"; mkdir -p "$work/store"; }
nothing() { :; }
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }

python3 tests/learning/make_corpus.py --bench "$work/home" "$n" "$kb"
python3 tests/learning/make_corpus.py --bench "$work/small" "$((n / 10))" "$kb"
size=$(du -sm "$work/home" | cut -f1)
echo "sessions: $n in the four formats, ${size} MB; $(nproc) cores"

export HOME="$work/home" TINYLINGO_HOME="$work/store"
unset CODEX_HOME XDG_DATA_HOME
fresh
"$bin" suggest >/dev/null 2>"$work/first.txt"
echo "first scan: $(cat "$work/first.txt" | head -n 1)"
printf '%-34s %s\n' "no-op (tinylingo --version)" "$(ms "$(timed nothing "$bin" --version)")"
printf '%-34s %s\n' "cold scan ($n sessions)" "$(ms "$(timed fresh "$bin" suggest)")"
fresh
"$bin" suggest >/dev/null 2>&1
printf '%-34s %s\n' "rescan, nothing new" "$(ms "$(timed nothing "$bin" suggest)")"

fresh
big=$(peak_kb "$bin" suggest)
fresh
small=$(HOME="$work/small" peak_kb "$bin" suggest)
echo "peak RSS, cold scan: $((n / 10)) sessions ${small} KB, $n sessions ${big} KB"
