#!/usr/bin/env bash
# Whole-process benchmark: the hook (exact matching, as a fresh process per prompt, the way an
# assistant runs it) against a no-op Rust binary that only reads stdin, side by side in one
# run, at several glossary sizes. Also measures the hook's peak RSS, `record` on that glossary,
# and the index size against glossary.json.
#
# Usage:  benches/hook.sh [terms…]          (default: 1000 10000 100000)
# Env:    RUNS=N            runs per command and size (default 300)
#         RECORD_RUNS=N     timed `record` runs per size (default 11)
#         HOOKBENCH_GATE=R  fail (exit 3) when a hook/no-op ratio exceeds R
#         DEDUPE=1          measure with inject.dedupe on
#         SUBSTRING=1       measure with matching.wordBoundary off (plain substrings, the
#                           default before whole words)
#         JOURNAL=1         measure with the thread journal on: the prompt hook then keeps each
#                           prompt, and the after-response hook is measured against the no-op
#                           too: Gemini's (`hook gemini after`, whose event carries prompt and
#                           answer), and Claude Code's, which reads the model from a transcript
#                           of TRANSCRIPT_MB (default 20) MB. Both events name a session file in
#                           the assistant's sessions folder (CLAUDE_CONFIG_DIR and
#                           GEMINI_CLI_HOME point into the work folder), so that the capture
#                           (`learn.capture`, on unless CAPTURE=0) is started as in real use
#         PROJECT=N         add a trusted project glossary of N terms: `.tinylingo/` in a temporary
#                           git folder, which is the event's cwd (a few levels down), so the hook
#                           walks up to it and merges its hits with the user's. Its terms are the
#                           first N of the user's synthetic ones: each project hit shadows a user
#                           hit, the block keeps its size, and what is added is the walk, the
#                           second index and the merge. Without PROJECT the event's cwd is a
#                           folder with no project glossary above it, and no folder is trusted
#                           (so the hook does not walk up).
#
# Quote the ratios and medians: absolute times drift on shared machines, ratios measured in
# one run do not.
#
# Two no-ops. The ratio the budgets and the gate use is against `examples/noop`, built by Cargo
# like the hook: statically linked on Linux (.cargo/config.toml), the fastest start a process
# can have here, so the ratio is the hook's own work. A second line gives the hook against the
# same no-op compiled by plain `rustc`, dynamically linked as most programs are: what the hook
# costs next to an ordinary process start. Both binaries are copied into a temporary folder
# first and run from there, as an installed binary is: a file just written by the linker sits
# in the page cache in small pieces and takes several more page faults per run than a copy.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)
runs=${RUNS:-300}
record_runs=${RECORD_RUNS:-11}

cargo build --release --quiet --bin tinylingo --example noop --example synth --example hookbench
rel=$(benches/support/release-dir)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$rel/tinylingo" "$rel/examples/noop" "$work/"
bin=$work/tinylingo
noop=$work/noop
# Built as Cargo built the no-op before the static link: optimised, fat LTO, stripped, PIE.
rustc --edition 2021 -C opt-level=3 -C lto=fat -C codegen-units=1 -C strip=symbols \
  -o "$work/noop-dynamic" examples/noop.rs

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-9s %s\n' terms "hook vs no-op (medians), peak RSS, record median, index/glossary size"
for n in "${sizes[@]}"; do
  store="$work/store-$n"
  mkdir -p "$store"
  $rel/examples/synth "$n" "$store" --event "$work/event.json"
  export TINYLINGO_HOME="$store"
  if [ -n "${PROJECT:-}" ]; then
    project="$work/project-$n"
    mkdir -p "$project/src/app/module"
    git -C "$project" init -q
    $rel/examples/synth "$PROJECT" "$project/.tinylingo"
    "$bin" trust "$project" 2>/dev/null
    cwd="$project/src/app/module"
  else
    cwd="$work/no-project/src/app/module"
    mkdir -p "$cwd"
  fi
  python3 -c 'import json, sys
e = json.load(open(sys.argv[1])); e["cwd"] = sys.argv[2]; json.dump(e, open(sys.argv[1], "w"), ensure_ascii=False)' \
    "$work/event.json" "$cwd"
  if [ "${DEDUPE:-0}" = 1 ]; then "$bin" config inject.dedupe true 2>/dev/null; fi
  if [ "${SUBSTRING:-0}" = 1 ]; then "$bin" config matching.wordBoundary false 2>/dev/null; fi
  # THREAD=0 with JOURNAL=1: the after-response hooks measured with the journal off (the
  # capture's hook alone).
  if [ "${JOURNAL:-0}" = 1 ] && [ "${THREAD:-1}" = 1 ]; then "$bin" config thread.enabled true 2>/dev/null; fi
  if [ "${CAPTURE:-1}" = 0 ]; then "$bin" config learn.capture false 2>/dev/null; fi
  # The benchmark is only meaningful if the hook really answers from the mapped index.
  out=$("$bin" hook claude <"$work/event.json")
  case "$out" in *TinyLingo*) ;; *) echo "hook gave no block at $n terms: $out" >&2; exit 1 ;; esac
  if [ -n "${PROJECT:-}" ]; then
    # ... and with the project's terms (its index rebuilt once, above: `trust` changed the
    # user's config.json, which the project index's header fingerprints).
    prompt=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["prompt"])' "$work/event.json")
    (cd "$cwd" && "$OLDPWD/$bin" match --no-llm --format tsv "$prompt" | grep -q $'\tproject$') ||
      { echo "no project hit at $n terms" >&2; exit 1; }
  fi
  ratio_line=$($rel/examples/hookbench "$runs" "$work/event.json" "$noop" -- "$bin" hook claude)
  dynamic_line=$(HOOKBENCH_GATE= $rel/examples/hookbench "$runs" "$work/event.json" "$work/noop-dynamic" -- \
    "$bin" hook claude)
  rss_kib=$(/usr/bin/time -f %M "$bin" hook claude <"$work/event.json" 2>&1 >/dev/null | tail -n 1)
  rec_ms=$(for i in $(seq "$record_runs"); do
    s=$(date +%s%N)
    "$bin" record --force "bench term" "explanation number $i" 2>/dev/null
    e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median)
  gsize=$(stat -c %s "$store/glossary.json")
  isize=$(stat -c %s "$store/glossary.index")
  printf '%-9s against the static no-op (the hook alone; gated): %s\n' "$n" "$ratio_line"
  printf '%-9s against a dynamically linked no-op (an ordinary process start): %s\n' "" "$dynamic_line"
  printf '%-9s peak RSS %s KiB   record %s.%03d ms   index %s B / glossary %s B = %s\n' "" \
    "$rss_kib" $((rec_ms / 1000)) $((rec_ms % 1000)) "$isize" "$gsize" \
    "$(awk -v a="$isize" -v b="$gsize" 'BEGIN { printf "%.2f×", a / b }')"
  if [ "${JOURNAL:-0}" = 1 ]; then
    # An answer of the usual shape: paragraphs, a list, a code block, a conclusion.
    answer=$(printf '%s\n\n' "我先看了 src/modules/bgremove 里的实现。" "- 边缘检测用的是 Sobel 算子" \
      "- alpha 通道没有做抗锯齿" '```rust' 'fn blur() {}' '```' \
      "总结：锯齿来自 alpha 通道，加一次高斯模糊即可。" | head -c 1500)
    export CLAUDE_CONFIG_DIR="$work/claude" GEMINI_CLI_HOME="$work/gemini"
    chats="$GEMINI_CLI_HOME/.gemini/tmp/bench/chats"
    mkdir -p "$chats" "$CLAUDE_CONFIG_DIR/projects/bench"
    # The session as Gemini CLI 0.61 has it when AfterAgent runs: the prompt's entry and the
    # answer's, which names the model (tests/e2e/gemini.py, check_journal).
    python3 -c 'import json, sys
print(json.dumps({"id": "u1", "type": "user", "content": [{"text": "智能抠图的边缘有锯齿"}]}))
print(json.dumps({"id": "g1", "type": "gemini", "content": sys.argv[1], "model": "gemini-bench"}))' \
      "$answer" >"$chats/session-bench.jsonl"
    python3 -c 'import json, sys
print(json.dumps({"session_id": "bench", "transcript_path": sys.argv[2], "prompt": "智能抠图的边缘有锯齿", "prompt_response": sys.argv[1]}))' \
      "$answer" "$chats/session-bench.jsonl" >"$work/after.json"
    after_line=$($rel/examples/hookbench "$runs" "$work/after.json" "$noop" -- "$bin" hook gemini after)
    printf '%-9s after-response hook: %s\n' "" "$after_line"
    # Claude Code's Stop event names no model: it is read from the session's transcript, here
    # a long session's (TRANSCRIPT_MB of earlier exchanges, the last one at the end).
    python3 - "$CLAUDE_CONFIG_DIR/projects/bench/transcript.jsonl" "${TRANSCRIPT_MB:-20}" "$answer" "$work/stop.json" <<'PY'
import json, sys
path, mb, answer, stop = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def entry(kind, content, model=None):
    message = {"role": kind, "content": content}
    if model:
        message["model"] = model
    return json.dumps({"type": kind, "message": message}, ensure_ascii=False) + "\n"
old = entry("user", "先前的问题 " * 20) + entry("assistant", [{"type": "text", "text": answer}], "claude-old")
with open(path, "w") as f:
    f.write(old * (mb * 1024 * 1024 // len(old.encode())))
    f.write(entry("user", "智能抠图的边缘有锯齿"))
    f.write(entry("assistant", [{"type": "text", "text": answer}], "claude-bench"))
json.dump({"session_id": "stop", "transcript_path": path, "stop_hook_active": False,
           "last_assistant_message": answer}, open(stop, "w"), ensure_ascii=False)
PY
    stop_line=$($rel/examples/hookbench "$runs" "$work/stop.json" "$noop" -- "$bin" hook claude after)
    printf '%-9s after-response hook, Claude Code with a %s MB transcript: %s\n' "" \
      "${TRANSCRIPT_MB:-20}" "$stop_line"
  fi
done
