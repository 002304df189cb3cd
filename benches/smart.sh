#!/usr/bin/env bash
# The smart path's own cost: the hook with smart matching on, against a stand-in LLM that
# answers at once, compared with the same hook with smart matching off, side by side in one
# run. The difference of the medians is what the prefilter, the prompt, the HTTP round trip on
# 127.0.0.1 and the answer's parsing add (the stand-in's own work included, so it is an upper
# bound); a real model adds its thinking time on top.
#
# Usage: benches/smart.sh [terms]   (default 100000)      Env: RUNS (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${RUNS:-200}
cargo build --release --quiet --bin tinylingo --example synth --example hookbench --example instant_llm
rel=$(benches/support/release-dir)
bin=$rel/tinylingo
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

mkdir -p "$work/off" "$work/on"
$rel/examples/synth "$n" "$work/off" --event "$work/event.json"
$rel/examples/synth "$n" "$work/on"
$rel/examples/instant_llm "$work/port" $((4 * runs + 100)) &
server=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
TINYLINGO_HOME="$work/on" "$bin" config smart.endpoint "http://127.0.0.1:$(cat "$work/port")/v1/chat/completions" 2>/dev/null
TINYLINGO_HOME="$work/on" "$bin" config smart.enabled true 2>/dev/null
TINYLINGO_HOME="$work/on" "$bin" config debug true 2>/dev/null
TINYLINGO_HOME="$work/on" "$bin" hook claude <"$work/event.json" >/dev/null
tail -n 1 "$work/on/debug.log" | sed 's/^[0-9]* /smart hook, one run: /' | cut -c1-400
TINYLINGO_HOME="$work/on" "$bin" config debug false 2>/dev/null

# hookbench runs both commands with the same environment; each gets its store from a wrapper
# that execs the binary (no shell in the timed path: env execs directly).
echo "terms: $n"
$rel/examples/hookbench "$runs" "$work/event.json" \
  env TINYLINGO_HOME="$work/off" "$bin" hook claude -- \
  env TINYLINGO_HOME="$work/on" "$bin" hook claude
