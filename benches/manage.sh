#!/usr/bin/env bash
# Whole-process timings of the commands that manage a large glossary (issue 17's budgets):
#   search at 100k terms (budget 50 ms), import of 10,000 terms (budget 1 s), export and stats
#   at 100k, and the cost of the hook's usage log: the hook with `stats.enabled` on against the
#   same hook with it off, alternating, on a prompt with no hit (budget: nothing measurable)
#   and, for the record, on one that hits (one append).
#
# Usage:  benches/manage.sh [terms]        (default 100000)
# Env:    RUNS=N        timed runs per command (default 21; the hook comparison runs 10× as many)
#         REALISTIC=1   explanations shaped like real ones (synth --realistic: ~60 CJK chars
#                       and a path each, a 22 MB glossary.json at 100k)
#
# Quote medians and ratios: absolute times drift on shared machines.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${RUNS:-21}

cargo build --release --quiet --bin tinylingo --example synth --example hookbench --example noop
rel=$(benches/support/release-dir)
bin=$PWD/$rel/tinylingo
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Median wall time of a command line, in microseconds, over $runs runs (one warm-up first).
timed() {
  "$@" >/dev/null 2>&1 || true
  for _ in $(seq "$runs"); do
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median
}
ms() { awk -v us="$1" 'BEGIN { printf "%.1f ms", us / 1000 }'; }

store="$work/store"
mkdir -p "$store"
realistic=()
if [ "${REALISTIC:-0}" = 1 ]; then realistic=(--realistic); fi
$rel/examples/synth "$n" "$store" "${realistic[@]}" --event "$work/hit.json"
export TINYLINGO_HOME="$store"
# A query that hits a handful of entries, one that hits none (the whole glossary is scanned
# either way), and an ASCII query folded for case.
term=$("$bin" list --format tsv | sed -n "$((n / 2))p" | cut -f1)
printf '%-36s %s\n' "search (a term, $n terms)" "$(ms "$(timed "$bin" search "$term")")"
printf '%-36s %s\n' "search (no match, CJK)" "$(ms "$(timed "$bin" search 不存在的词语)")"
printf '%-36s %s\n' "search (no match, ASCII, any case)" "$(ms "$(timed "$bin" search NoSuchWordAnywhere)")"
printf '%-36s %s\n' "export --format tsv" "$(ms "$(timed "$bin" export --format tsv)")"
printf '%-36s %s\n' "stats" "$(ms "$(timed "$bin" stats)")"

# Import: 10,000 new terms into an empty store, and into the large one (--dry-run, so that
# each run finds the same glossary).
"$bin" export --format tsv >"$work/all.tsv"
head -n 10000 "$work/all.tsv" | sed 's/^/imported-/' >"$work/10k.tsv"
empty_import() {
  rm -rf "$work/empty" && mkdir "$work/empty"
  TINYLINGO_HOME="$work/empty" "$bin" import "$work/10k.tsv"
}
printf '%-36s %s\n' "import 10k terms, empty store" "$(ms "$(timed empty_import)")"
printf '%-36s %s\n' "import 10k terms into $n, dry run" "$(ms "$(timed "$bin" import --dry-run "$work/10k.tsv")")"

# The usage log: the same store and prompt with stats on and off, alternating (hookbench).
off="$work/store-off"
cp -r "$store" "$off"
TINYLINGO_HOME="$off" "$bin" config stats.enabled false 2>/dev/null
TINYLINGO_HOME="$store" "$bin" config stats.enabled true 2>/dev/null
printf '{"hook_event_name":"UserPromptSubmit","session_id":"bench","prompt":"今天天气不错，随便聊聊"}' >"$work/miss.json"
for event in miss hit; do
  line=$($rel/examples/hookbench $((runs * 10)) "$work/$event.json" \
    env TINYLINGO_HOME="$off" "$bin" hook claude -- env TINYLINGO_HOME="$store" "$bin" hook claude)
  printf '%-36s %s\n' "hook, usage log on vs off ($event)" "$line"
done
