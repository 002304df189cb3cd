#!/usr/bin/env bash
# Whole-process benchmark of `record` on a large glossary whose explanations are shaped like
# real ones (`examples/synth --realistic`: about 60 CJK characters and a path each, some 22 MB
# of glossary.json at 100k terms). Each run records a new term, so the whole path runs: the
# near-duplicate check over every entry, the glossary write, the index rebuild, the record-times
# log. Prints the median of the runs, and with BASELINE set, of another binary's runs taken
# alternately in the same loop (on a copy of the same store), and the ratio.
#
# Usage:  benches/record.sh [terms]            (default: 100000)
# Env:    RUNS=N          timed runs (default 21)
#         BASELINE=PATH   another tinylingo binary to measure alongside (e.g. main's build)
#         SMART=1         with smart.enabled on (and an endpoint where nothing listens: the
#                         check's LLM step then fails at once and the record goes through)
#
# Quote medians and ratios from one run: absolute times drift on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${RUNS:-21}

cargo build --release --quiet --bin tinylingo --example synth
rel=$(benches/support/release-dir)
bin=$rel/tinylingo
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

$rel/examples/synth "$n" "$work/new" --realistic
$rel/examples/synth --new-entries "$runs" >"$work/entries.tsv"
if [ "${SMART:-0}" = 1 ]; then
  TINYLINGO_HOME="$work/new" "$bin" config smart.endpoint http://127.0.0.1:9/v1/chat/completions 2>/dev/null
  TINYLINGO_HOME="$work/new" "$bin" config smart.enabled true 2>/dev/null
fi
[ -z "${BASELINE:-}" ] || cp -r "$work/new" "$work/base"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# One timed `record` of new entry number i, in microseconds; a refusal fails the benchmark.
timed() {
  local program=$1 store=$2 i=$3 s e term explanation
  IFS=$'\t' read -r term explanation < <(sed -n "${i}p" "$work/entries.tsv")
  s=$(date +%s%N)
  TINYLINGO_HOME="$store" "$program" record "$term" "$explanation" \
    2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  e=$(date +%s%N)
  echo $(( (e - s) / 1000 ))
}
: >"$work/new.us"
: >"$work/base.us"
for i in $(seq "$runs"); do
  timed "$bin" "$work/new" "$i" >>"$work/new.us"
  [ -z "${BASELINE:-}" ] || timed "$BASELINE" "$work/base" "$i" >>"$work/base.us"
done
ms() { awk -v us="$1" 'BEGIN { printf "%.1f ms", us / 1000 }'; }
new=$(median <"$work/new.us")
printf 'record at %s terms (realistic, glossary.json %s B), median of %s runs: %s\n' \
  "$n" "$(stat -c %s "$work/new/glossary.json")" "$runs" "$(ms "$new")"
if [ -n "${BASELINE:-}" ]; then
  base=$(median <"$work/base.us")
  printf 'baseline %s: %s   this/baseline %s\n' "$BASELINE" "$(ms "$base")" \
    "$(awk -v a="$new" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
fi
