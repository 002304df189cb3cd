"""Reads the drivers' result lines on stdin and prints the client × check table, then the
failures' details. Exits 1 when any check failed."""

import sys

rows = [line.rstrip("\n").split("\t", 3) for line in sys.stdin if line.count("\t") >= 2]
rows = [r + [""] * (4 - len(r)) for r in rows]
clients = list(dict.fromkeys(r[0] for r in rows))
checks = list(dict.fromkeys(r[1] for r in rows))
cell = {(r[0], r[1]): r[2] for r in rows}

width = max([len(c) for c in checks] + [5])
print("check".ljust(width) + "".join(f"  {c:>9}" for c in clients))
for check in checks:
    print(check.ljust(width) + "".join(f"  {cell.get((c, check), '-'):>9}" for c in clients))

failed = [r for r in rows if r[2] == "fail"]
passed = sum(r[2] == "pass" for r in rows)
skipped = sum(r[2] == "skip" for r in rows)
for r in rows:
    if r[2] != "pass" and r[3]:
        print(f"{r[0]} {r[1]}: {r[2]}: {r[3]}")
print(f"e2e: {passed} passed, {len(failed)} failed, {skipped} skipped")
sys.exit(1 if failed or not rows else 0)
