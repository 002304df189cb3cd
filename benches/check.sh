#!/usr/bin/env bash
# Whole-process benchmark of `tinylingo check` on a 10,000-file git repository with a
# 10,000-entry project glossary (the budget: about a second). Each explanation names one or two
# paths of the repository, the way real ones do; 1 in 20 names a file since renamed (found by
# its name elsewhere), 1 in 50 one since deleted (then git's rename detection is read too), and
# the repository has a history of 20 commits with renames. Prints the median of the runs, and
# for scale the median of `git ls-files` alone (which check runs twice) in the same loop.
#
# Usage:  benches/check.sh [files] [entries]    (default: 10000 10000)
# Env:    RUNS=N   timed runs (default 11)
#
# Quote medians from one run: absolute times drift on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-10000}
entries=${2:-10000}
runs=${RUNS:-11}

cargo build --release --quiet --bin tinylingo
bin=$PWD/$(benches/support/release-dir)/tinylingo
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
mkdir -p "$repo" "$work/home"
export HOME=$work/home
git() { command git -C "$repo" -c user.name=bench -c user.email=b@example.com -c commit.gpgsign=false "$@"; }
git init -q -b main

python3 - "$repo" "$files" "$entries" <<'PY'
import json, os, random, sys
repo, files, entries = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(26)
areas = ["src", "engine", "tools", "web", "docs", "tests"]
paths = []
for i in range(files):
    depth = rng.randint(1, 3)
    parts = [rng.choice(areas)] + [f"m{rng.randint(0, 40)}" for _ in range(depth)]
    paths.append("/".join(parts) + f"/file{i}.{rng.choice(['rs', 'py', 'ts', 'md'])}")
for p in paths:
    full = os.path.join(repo, p)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(f"{p}\n" + "line\n" * 8)
glossary = {}
named = []
for i in range(entries):
    a, b = rng.choice(paths), rng.choice(paths)
    named.append(a)
    glossary[f"术语{i}"] = f"模块 {i} 的实现在 {a}，测试见 {os.path.dirname(b)}/ 目录，类名 Type{i}"
os.makedirs(os.path.join(repo, ".tinylingo"), exist_ok=True)
with open(os.path.join(repo, ".tinylingo", "glossary.json"), "w") as f:
    json.dump(glossary, f, ensure_ascii=False, indent=2)
# What the history then does to those paths: renames (to another folder) and deletions.
with open(os.path.join(repo, ".moves"), "w") as f:
    for i, p in enumerate(named[: entries // 20]):
        f.write(f"mv\t{p}\tsrc/moved{i % 7}/{os.path.basename(p)}\n")
    for p in named[entries // 20 : entries // 20 + entries // 50]:
        f.write(f"rm\t{p}\n")
PY
git add -A -- . ':!.moves'
git commit -qm init
# 20 commits of history, the moves and deletions spread over them.
split -n l/20 "$repo/.moves" "$work/moves."
for part in "$work"/moves.*; do
  while IFS=$'\t' read -r op from to; do
    [ -e "$repo/$from" ] || continue
    if [ "$op" = mv ]; then mkdir -p "$(dirname "$repo/$to")"; git mv "$from" "$to"; else git rm -q "$from"; fi
  done <"$part"
  git commit -qm "move" --allow-empty
done
rm "$repo/.moves"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
us() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }
# One untimed run: the project index is built on first read, as after any pull.
(cd "$repo" && "$bin" check --project >/dev/null 2>&1) || true
: >"$work/check.us"
: >"$work/git.us"
for _ in $(seq "$runs"); do
  (cd "$repo" && us "$bin" check --project --format json) >>"$work/check.us"
  us git ls-files -z >>"$work/git.us"
done
issues=$(cd "$repo" && "$bin" check --project --format tsv 2>/dev/null | wc -l || true)
ms() { awk -v us="$1" 'BEGIN { printf "%.1f ms", us / 1000 }'; }
printf 'check at %s files, %s entries (%s issues found), median of %s runs: %s\n' \
  "$(git ls-files | wc -l)" "$entries" "$issues" "$runs" "$(ms "$(median <"$work/check.us")")"
printf 'git ls-files alone: %s\n' "$(ms "$(median <"$work/git.us")")"
