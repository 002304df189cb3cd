#!/usr/bin/env bash
# The linker script that gathers the functions the hook runs at the front of the binary's code,
# so that a hook run faults in three 64 KiB windows of code rather than a dozen spread over the
# whole binary (build.rs passes src/hot_path.ld to the linker).
#
# Usage:  benches/hot-path.sh           rewrite src/hot_path.ld
#         benches/hot-path.sh --check   measure where the hook's code lies in the release build;
#                                       exit 1 when the list has lost its effect
# Env (--check):
#         TINYLINGO_HOT_PATH=FILE       link with FILE instead of src/hot_path.ld (see build.rs)
#         HOT_PATH_MAX_STRAY=W          the most 64 KiB windows of code the hook may run outside
#                                       the gathered section (default 5: in the static binary
#                                       two are structural, the `.iplt` stubs every call to a
#                                       string function goes through and `.init`/`.fini`, which
#                                       a list cannot move; three more are tolerated)
#
# Both modes run the hook under valgrind's callgrind, for every platform, on a small and a
# large synthetic glossary, with a prompt that matches and one that does not, on the matching
# one from inside a trusted project glossary, and with the thread journal on (23 prompt hook
# runs); and the journal's after-response hook, for Claude Code (with a transcript) and for
# Gemini CLI (2 runs). The prompt hook's functions go in `.text.hot`; the after-response
# hook's other functions in `.text.warm`, right after it, so that they neither spread the
# prompt hook's code over more windows nor lie scattered themselves.
#
# Writing: a release build with symbols, linked without the list (valgrind only names
# functions that lie in `.text`), and every function of the binary that executed is listed.
# Names are sorted, so the file only changes when the set of functions does. What changes
# with a toolchain or a build setting while the function stays is a wildcard: the hash that
# legacy-mangled names end in, the crate disambiguator of v0-mangled names (std's changes with
# every rustc release), and the `.N` suffix LTO gives local symbols (it changes with any edit).
#
# Checking: the release build as shipped (stripped, linked with the list) runs the same events,
# and every instruction it executes is placed by its address: in the gathered section
# `.text.hot`, or elsewhere in the binary's code. No symbol is needed and no name can be out of
# step: the check measures the layout the linker really made. What costs time is a 64 KiB
# window of code the hook runs outside `.text.hot`: the kernel maps file pages 64 KiB at a
# time, so each such "stray" window is one more page fault per hook run (measured: a list
# missing functions in 4 stray windows took 4 faults and 1.9 % more wall time than the
# regenerated one; no list at all, 14 stray windows, 9 faults and 3.8 %). A function the list
# misses (renamed by a new rustc or a dependency, or new on the hook's path) usually costs one
# window or none; a few are tolerated, losing a third of the gain is not. The report also gives
# the share of the executed functions (told apart by their unwind entries) and instructions
# that lie in `.text.hot`, for information.
#
# Needs valgrind (Debian: apt-get install valgrind) and readelf (binutils).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-write}
case "$mode" in write | --check) ;; *) echo "usage: benches/hot-path.sh [--check]" >&2; exit 2 ;; esac
command -v valgrind >/dev/null || {
  echo "benches/hot-path.sh needs valgrind (Debian: apt-get install valgrind)" >&2
  exit 2
}
script=src/hot_path.ld
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$mode" = write ]; then
  # Symbols kept, and linked without the current list.
  target=target/hot-path
  TINYLINGO_UNORDERED=1 CARGO_PROFILE_RELEASE_STRIP=false cargo build --release --quiet --locked \
    --target-dir "$target" --bin tinylingo --example synth
else
  # The build as shipped: CI has just built it for the end-to-end tests, so this is a no-op there.
  target=target
  cargo build --release --quiet --locked --bin tinylingo --example synth
fi
rel=$(benches/support/release-dir "$target")
bin=$rel/tinylingo

# The events: the benchmark prompt (many hits), and one that matches nothing.
for n in 1000 100000; do
  "$rel/examples/synth" "$n" "$work/store-$n" --event "$work/hits.json"
done
sed 's/"prompt":"[^"]*"/"prompt":"nothing to see here"/' "$work/hits.json" >"$work/none.json"
# The benchmark prompt from inside a trusted project (a project glossary of 1000 terms, whose
# index is rebuilt once for the user's settings before anything is traced), for the walk up,
# the second index and the merge; one project per store, as each store's config.json is
# fingerprinted by the project's index.
for n in 1000 100000; do
  project=$work/project-$n
  mkdir -p "$project/src/app"
  "$rel/examples/synth" 1000 "$project/.tinylingo"
  TINYLINGO_HOME=$work/store-$n "$bin" trust "$project" 2>/dev/null
  sed "s|\"cwd\":\"[^\"]*\"|\"cwd\":\"$project/src/app\"|" "$work/hits.json" >"$work/project-$n.json"
  TINYLINGO_HOME=$work/store-$n "$bin" hook claude <"$work/project-$n.json" >/dev/null
done
# The thread journal's events: a transcript as Claude Code writes it, its Stop event for the
# session of hits.json, and Gemini's AfterAgent event, which carries prompt and answer.
printf '%s\n' '{"type":"user","message":{"role":"user","content":"智能抠图的边缘有锯齿"}}' \
  '{"type":"assistant","message":{"model":"claude-x","content":[{"type":"text","text":"我看过了。\n\n总结：锯齿来自 alpha 通道。"}]}}' \
  >"$work/transcript.jsonl"
printf '{"session_id":"bench","transcript_path":"%s","stop_hook_active":false,"last_assistant_message":"我看过了。\\n\\n总结：锯齿来自 alpha 通道。"}' \
  "$work/transcript.jsonl" >"$work/claude-after.json"
printf '%s' '{"session_id":"g","prompt":"why?","prompt_response":"I looked. In short, it works."}' \
  >"$work/gemini-after.json"
for e in hits none; do
  # Cursor's own event, which the other platforms' hooks refuse as foreign.
  sed 's/"hook_event_name":"UserPromptSubmit"/"hook_event_name":"beforeSubmitPrompt","conversation_id":"c"/' \
    "$work/$e.json" >"$work/$e-cursor.json"
done

# Plain output: every name and position in full on every line (no compression), and, for the
# check, a cost line per executed instruction address.
runs=0
for n in 1000 100000; do
  for platform in claude cursor codex gemini opencode; do
    for e in hits none; do
      event=$work/$e.json
      [ "$platform" = cursor ] && event=$work/$e-cursor.json
      TINYLINGO_HOME=$work/store-$n valgrind --tool=callgrind --demangle=no --compress-strings=no \
        --compress-pos=no --dump-instr=yes --dump-line=no --callgrind-out-file="$work/cg.$runs" \
        "$bin" hook "$platform" <"$event" >/dev/null 2>"$work/valgrind.log" ||
        { cat "$work/valgrind.log" >&2; exit 2; }
      runs=$((runs + 1))
    done
  done
  TINYLINGO_HOME=$work/store-$n valgrind --tool=callgrind --demangle=no --compress-strings=no \
    --compress-pos=no --dump-instr=yes --dump-line=no --callgrind-out-file="$work/cg.$runs" \
    "$bin" hook claude <"$work/project-$n.json" >/dev/null 2>"$work/valgrind.log" ||
    { cat "$work/valgrind.log" >&2; exit 2; }
  runs=$((runs + 1))
done
# With the journal on (its index rebuilt once first, for the changed config.json): the prompt
# hook keeps the prompt (cg.*), the after-response hooks write entries (after.*).
export TINYLINGO_HOME=$work/store-1000
"$bin" config thread.enabled true 2>/dev/null
"$bin" hook claude <"$work/none.json" >/dev/null
trace() { # <output file> <event> <hook arguments…>
  local out=$1 event=$2
  shift 2
  valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
    --dump-instr=yes --dump-line=no --callgrind-out-file="$out" "$bin" hook "$@" <"$event" \
    >/dev/null 2>"$work/valgrind.log" || { cat "$work/valgrind.log" >&2; exit 2; }
}
trace "$work/cg.$runs" "$work/hits.json" claude
runs=$((runs + 1))
trace "$work/after.0" "$work/claude-after.json" claude after
trace "$work/after.1" "$work/gemini-after.json" gemini after
grep -q '锯齿来自' "$work/store-1000/threads/"thread-*.md ||
  { echo "benches/hot-path.sh: the after-response hook wrote no journal entry" >&2; exit 2; }
unset TINYLINGO_HOME

if [ "$mode" = --check ]; then
  # The binary's executable sections (name, address, size), and its functions' address ranges.
  readelf -SW "$bin" | sed -E 's/^ *\[ *[0-9]+\] *//' | awk '$7 ~ /X/ { print $1, $3, $5 }' \
    >"$work/sections"
  grep -q '^\.text\.hot ' "$work/sections" || echo "$bin has no .text.hot section: nothing is gathered" >&2
  readelf --debug-dump=frames "$bin" | sed -nE 's/.* FDE .*pc=([0-9a-f]+)\.\.([0-9a-f]+).*/\1 \2/p' \
    >"$work/functions"
  # A cost line is `<address> <instructions>`; the line after `calls=` is a call's inclusive
  # cost, already counted in the callee. Instructions are placed by address alone: valgrind
  # does not attribute code in `.text.hot` to the binary.
  # measure <gathered sections> <callgrind files…>: how the runs' code lies against the named
  # sections (space-separated), as `hot_functions functions in_hot total windows stray`.
  measure() {
  local gathered=$1
  shift
  awk -v gathered="$gathered" '
    BEGIN { n = split(gathered, list, " "); for (i = 1; i <= n; i++) is_gathered[list[i]] = 1 }
    function hex(s,    i, v) {
      v = 0; s = tolower(s); sub(/^0x/, "", s)
      for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v
    }
    FILENAME == ARGV[1] { name[++ns] = $1; lo[ns] = hex($2); hi[ns] = lo[ns] + hex($3); next }
    FILENAME == ARGV[2] { f_lo[++nf] = hex($1); f_hi[nf] = hex($2); order[nf] = nf; next }
    /^calls=/ { inclusive = 1; next }
    /^0x/ {
      if (inclusive) { inclusive = 0; next }
      ir[hex($1)] += $2
      next
    }
    { inclusive = 0 }
    # The unwind entry that covers an address (entries sorted by start), or 0.
    function covering(a,    l, h, m) {
      l = 1; h = nf
      while (l < h) { m = int((l + h + 1) / 2); if (f_lo[order[m]] <= a) l = m; else h = m - 1 }
      return nf && f_lo[order[l]] <= a && a < f_hi[order[l]] ? order[l] : 0
    }
    END {
      # Insertion sort of the entries by start: they come nearly in order.
      for (i = 2; i <= nf; i++) {
        k = order[i]
        for (j = i - 1; j >= 1 && f_lo[order[j]] > f_lo[k]; j--) order[j + 1] = order[j]
        order[j + 1] = k
      }
      for (a in ir) {
        a += 0
        for (s = 1; s <= ns && !(a >= lo[s] && a < hi[s]); s++) {}
        if (s > ns) continue                      # a shared library, the loader, valgrind
        hot = name[s] in is_gathered
        total += ir[a]; if (hot) in_hot += ir[a]
        # The function: the unwind entry that covers the address, or for code without one
        # (the C runtime start-up, the PLT), its 4 KiB page.
        f = covering(a)
        key = f ? "f" f : "p" int(a / 4096)
        if (!(key in seen)) { seen[key] = 1; functions++; if (hot) hot_functions++ }
        window = int(a / 65536)
        if (hot) hot_window[window] = 1; else other_window[window] = 1
      }
      for (w in other_window) if (!(w in hot_window)) stray++
      for (w in hot_window) windows++
      printf "%d %d %d %d %d %d\n", hot_functions, functions, in_hot, total, windows, stray
    }
  ' "$work/sections" "$work/functions" "$@"
  }
  measure .text.hot "$work"/cg.* >"$work/measure"
  measure ".text.hot .text.warm" "$work"/after.* >"$work/measure-after"
  read -r hot_functions functions in_hot total windows stray <"$work/measure"
  read -r _ _ _ _ after_windows after_stray <"$work/measure-after"
  share=$(awk -v a="$hot_functions" -v b="$functions" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }')
  ir_share=$(awk -v a="$in_hot" -v b="$total" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }')
  max_stray=${HOT_PATH_MAX_STRAY:-5}
  echo "hot path (${TINYLINGO_HOT_PATH:-$script}, $runs hook runs): the hook's code in .text.hot spans" \
    "$windows 64 KiB windows, and it ran code in $stray more windows outside it (at most $max_stray" \
    "allowed); .text.hot holds $hot_functions of the $functions functions it ran ($share %) and" \
    "$ir_share % of its instructions"
  echo "the journal's after-response hook (2 runs): its code in .text.hot and .text.warm spans" \
    "$after_windows windows, and it ran code in $after_stray more windows outside them (at most" \
    "$max_stray allowed)"
  if [ "$stray" -gt "$max_stray" ] || [ "$after_stray" -gt "$max_stray" ]; then
    echo "src/hot_path.ld no longer gathers the hook's code ($stray stray windows for the prompt" \
      "hook, $after_stray for the after-response hook, each a page fault per hook run): run" \
      "benches/hot-path.sh and commit src/hot_path.ld" >&2
    exit 1
  fi
  exit 0
fi

# callgrind names each object and function in full on every line (--compress-strings=no):
# `ob=` is the object the functions after it belong to. Keep the functions that ran inside
# our binary.
# functions <callgrind files…>: the functions that ran inside our binary, as the list names them.
functions() {
  awk '
  /^ob=/ { ours = $0 ~ /\/tinylingo$/; next }
  /^fn=/ { if (ours) print substr($0, 4) }
  ' "$@" |
  sed -E "s/'[0-9]+$//" |                      # callgrind marks recursion levels as name'2
  grep -Ev '^(0x[0-9a-f]+|\(below main\)|_start|_init|_fini|frame_dummy|register_tm_clones|deregister_tm_clones|__do_global_dtors_aux)$' |
  sed -E 's/17h[0-9a-f]{16}E$/17h*E/; s/\.[0-9]+$/.*/; /^_R/ s/Cs[0-9A-Za-z]+_/Cs*_/g' |
  LC_ALL=C sort -u
}
names=$(functions "$work"/cg.*) || true
# The after-response hook's functions that the prompt hook does not run.
warm=$(comm -13 <(echo "$names") <(functions "$work"/after.*)) || true
if [ -z "$names" ]; then
  echo "benches/hot-path.sh: callgrind named no function of $bin; is it built with symbols?" >&2
  exit 2
fi

# The binary is linked statically (.cargo/config.toml), so the C library's start-up, `malloc`,
# the string functions and the system-call wrappers are in it too, spread over the end of its
# code. They are not compiled one function to a section: the unit the linker can move is the
# archive member (`*libc.a:malloc.o`). A name that one of the static C libraries defines is
# listed as its member; every other name as its own section.
members=$work/members
for lib in libc.a libgcc.a libgcc_eh.a; do
  path=$(cc -print-file-name="$lib" 2>/dev/null) || continue
  [ -f "$path" ] || continue
  # `nm -A` prints `archive:member:address type name`; keep defined code symbols.
  nm -A --defined-only "$path" 2>/dev/null |
    awk -v lib="$lib" '$2 ~ /^[TtWi]$/ { n = split($1, p, ":"); print $3, lib ":" p[n - 1] }'
done | LC_ALL=C sort -u -k1,1 >"$members"
# place <names>: one input-section line per name (or per archive member, once).
place() {
  awk 'FILENAME == ARGV[1] { member[$1] = $2; next }
    $0 == "" { next }
    $0 in member { m = member[$0]; if (!(m in done)) { done[m] = 1; print "    *" m "(.text .text.*)" }; next }
    { print "    *(.text." $0 " .text.unlikely." $0 ")" }' "$members" -
}
# constants <names>: the read-only data of those archive members (their tables and strings lie
# scattered over the binary's 1.2 MB of constants otherwise, one page fault per 64 KiB window).
# Rust's constants have no stable section names to list, so they stay where they are.
constants() {
  awk 'FILENAME == ARGV[1] { member[$1] = $2; next }
    $0 in member { m = member[$0]; if (!(m in done)) { done[m] = 1; print "    *" m "(.rodata .rodata.*)" } }' \
    "$members" -
}

{
  echo "/* The functions a hook run executes, placed together at the front of the binary's code."
  echo "   Generated by benches/hot-path.sh from callgrind runs of the hook; do not edit by hand."
  echo "   A function missing here still links and runs, from its usual place: a stale list costs"
  echo "   page faults, never correctness. CI measures that the list still gathers the hook's"
  echo "   code (benches/hot-path.sh --check). */"
  echo "SECTIONS {"
  echo "  .text.hot : {"
  echo "    *crt1.o(.text .text.*)"
  echo "    *crti.o(.text .text.*)"
  echo "    *crtbegin*.o(.text .text.*)"
  place <<<"$names"
  echo "  }"
  echo "  .text.warm : {"
  place <<<"$warm"
  echo "  }"
  echo "}"
  echo "INSERT BEFORE .init;"
  echo "SECTIONS {"
  echo "  .rodata.hot : {"
  printf '%s\n%s\n' "$names" "$warm" | constants
  echo "  }"
  echo "}"
  echo "INSERT BEFORE .rodata;"
} >"$script"
echo "wrote $script ($(wc -l <<<"$names") functions, $runs prompt hook runs; $(grep -c . <<<"$warm")" \
  "more for the after-response hook)"
