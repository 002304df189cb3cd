#!/usr/bin/env bash
# `tinylingo suggest` over the assistants' session stores (issue 27's budgets): a cold scan of
# 1,000 sessions (about 200 MB, budget 5 s on 2 cores), a rescan with nothing new (budget
# 50 ms), and peak memory for 100 against 1,000 sessions (streaming: it must not grow with
# the transcripts). The sessions are the regression set's labeled cases in the four real formats
# (`examples/corpus --bench`: the renderer the tests use), each padded with tool output to the
# size asked.
#
# Usage:  benches/suggest.sh [sessions] [KB of tool output per session]   (default 1000 130;
#         the formats repeat a tool output in two records, so 130 KB gives ~200 MB in all)
# Env:    RUNS=N   timed runs of each measurement (default 5; each cold run starts from an
#                  empty store, so every file is read in full)
#         TINYLINGO_BIN=path   a binary already built (release) instead of building one
#
# Quote medians: absolute times drift on shared machines. `tinylingo --version` is timed as
# the no-op floor (process start and exit); CPU time (user+sys of the child) is printed beside
# the wall time because it drifts less when other work shares the cores.
#
# Peak RSS is a little higher at 1,000 sessions than at 100: caches that fill up to a bound
# (the regex engine's lazy DFA caches, SQLite's page cache; heaptrack, 2026-11) and nothing
# kept per session. The same 1,000 sessions at three times the size peak at about the same
# (`benches/suggest.sh 1000 390`).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
kb=${2:-130}
runs=${RUNS:-5}

if [ -z "${TINYLINGO_BIN:-}" ]; then
  cargo build --release --quiet --bin tinylingo
fi
cargo build --release --quiet --example corpus
bin=${TINYLINGO_BIN:-$PWD/$(benches/support/release-dir)/tinylingo}
corpus=$PWD/$(benches/support/release-dir)/examples/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fresh() { rm -rf "$work/store"; mkdir -p "$work/store"; }
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
# Median wall and CPU (user+sys, from the kernel's accounting of the child) time of `tinylingo
# ARGS` over $runs runs; with --fresh, each run starts from an empty store. Prints one line:
# the name, both medians, and the wall time's ratio to the no-op's.
timed() {
  python3 - "$bin" "$runs" "$work/store" "$@" <<'PY'
import os, resource, shutil, statistics, subprocess, sys, time
binary, runs, store, name, fresh, *args = sys.argv[1:]
walls, cpus = [], []
for _ in range(int(runs)):
    if fresh == "fresh":
        shutil.rmtree(store, ignore_errors=True)
        os.makedirs(store)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    walls.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
wall, cpu = statistics.median(walls) * 1000, statistics.median(cpus) * 1000
floor = float(os.environ.get("NOOP_MS", "0") or 0)
ratio = f"{wall / floor:6.1f}x no-op" if floor else ""
print(f"{name:<30} {wall:8.1f} ms wall {cpu:8.1f} ms CPU  {ratio}")
if not floor:
    with open(os.path.join(os.path.dirname(store), "noop_ms"), "w") as f:
        f.write(f"{wall}")
PY
}

"$corpus" --bench "$work/home" "$n" "$kb"
"$corpus" --bench "$work/small" "$((n / 10))" "$kb"
size=$(du -sm "$work/home" | cut -f1)
echo "sessions: $n in the four formats, ${size} MB; $(nproc) cores"

export HOME="$work/home" TINYLINGO_HOME="$work/store"
unset CODEX_HOME XDG_DATA_HOME
fresh
"$bin" suggest >/dev/null 2>"$work/first.txt"
echo "first scan: $(head -n 1 "$work/first.txt")"
echo "medians of $runs runs (the no-op is \`tinylingo --version\`: process start and exit)"
NOOP_MS= timed "no-op" keep --version
export NOOP_MS=$(cat "$work/noop_ms")
timed "cold scan ($n sessions)" fresh suggest
fresh
"$bin" suggest >/dev/null 2>&1
timed "rescan, nothing new" keep suggest

fresh
big=$(peak_kb "$bin" suggest)
fresh
small=$(HOME="$work/small" peak_kb "$bin" suggest)
echo "peak RSS, cold scan: $((n / 10)) sessions ${small} KB, $n sessions ${big} KB"
