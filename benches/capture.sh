#!/usr/bin/env bash
# How long a definition typed in a turn takes to reach the inbox once the after-response hook
# has returned (`learn.capture`): a Claude Code session in a temporary HOME gets a user line
# defining a new term, `hook claude after` runs on its `Stop` event, and the inbox file is
# polled (every 5 ms) until the term is in it. Prints each run's time and the median.
#
# Usage:  benches/capture.sh            Env: RUNS=N (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
cargo build --release --quiet --bin tinylingo
rel=$(benches/support/release-dir)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$rel/tinylingo" "$work/"
bin=$work/tinylingo
export HOME="$work/home"
unset TINYLINGO_HOME CLAUDE_CONFIG_DIR CODEX_HOME GEMINI_CLI_HOME
mkdir -p "$HOME/.claude/projects/-w"
session="$HOME/.claude/projects/-w/bench.jsonl"
: >"$session"
"$bin" record "seed" "a first entry" >/dev/null 2>&1
inbox="$HOME/.config/tinylingo/inbox.json"
times=()
for i in $(seq "$runs"); do
  term="zq$i"
  printf '{"type":"user","message":{"role":"user","content":"we call the db box %s"}}\n' "$term" >>"$session"
  printf '{"type":"assistant","message":{"role":"assistant","model":"m","content":[{"type":"text","text":"ok"}]}}\n' >>"$session"
  printf '{"session_id":"b","transcript_path":"%s","stop_hook_active":false}' "$session" |
    "$bin" hook claude after
  start=$(date +%s%N)
  until grep -q "\"$term\"" "$inbox" 2>/dev/null; do
    sleep 0.005
    if [ $(( ($(date +%s%N) - start) / 1000000 )) -gt 10000 ]; then echo "run $i: not captured in 10 s" >&2; exit 1; fi
  done
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  times+=("$ms")
  echo "run $i: ${ms} ms"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { print "median " v[int((NR + 1) / 2)] " ms over " NR " runs" }'
