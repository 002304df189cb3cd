#!/usr/bin/env bash
# Start-up of the MCP server: the time from spawning `tinylingo mcp` and sending `initialize`
# to its answer, against the wall time of a whole `tinylingo --version` process, alternating
# the two in one run. Prints both medians and their ratio.
#
# Usage:  benches/mcp-start.sh
# Env:    RUNS=N   runs of each (default 50)
#
# Quote the ratio and the medians of one run: absolute times drift on shared machines.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin tinylingo
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TINYLINGO_HOME="$work" RUNS="${RUNS:-50}" python3 - "$PWD/$(benches/support/release-dir)/tinylingo" <<'PY'
import json, os, statistics, subprocess, sys, time

binary, runs = sys.argv[1], int(os.environ["RUNS"])
init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "mcp-start.sh", "version": "1"}}}) + "\n"

def mcp():
    start = time.perf_counter()
    p = subprocess.Popen([binary, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    p.stdin.write(init.encode())
    p.stdin.flush()
    line = p.stdout.readline()
    elapsed = time.perf_counter() - start
    assert json.loads(line)["result"]["serverInfo"]["name"] == "tinylingo", line
    p.stdin.close()
    p.wait()
    return elapsed

def version():
    start = time.perf_counter()
    subprocess.run([binary, "--version"], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start

mcp(), version()  # warm the page cache
m, v = [], []
for _ in range(runs):
    m.append(mcp())
    v.append(version())
mm, vm = statistics.median(m) * 1e3, statistics.median(v) * 1e3
print(f"runs: {runs} each, alternating")
print(f"mcp initialize answered: median {mm:.2f} ms")
print(f"tinylingo --version:     median {vm:.2f} ms")
print(f"ratio: {mm / vm:.2f}")
PY
