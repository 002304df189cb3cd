"""Precision and recall of `tinylingo suggest` on one split of the labeled corpus, overall and per
language, with the missed positives and the false proposals named. The same count as the test
`the_rules_meet_their_precision_and_recall_floors` (each case rendered in the four formats, each
format scanned alone), split by the cases' `lang`.

    python3 tests/learning/score.py BINARY [SPLIT]     # SPLIT defaults to fresh

Standard library only; renders each language's cases into a temporary folder with make_corpus.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_corpus  # noqa: E402

ASSISTANTS = ("claude", "codex", "gemini", "opencode")


def scan(binary, cases):
    """The terms proposed per assistant for these cases, lower-cased."""
    got = {}
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        make_corpus.write(corpus, cases)
        for assistant in ASSISTANTS:
            home = Path(tmp) / assistant
            shutil.copytree(corpus, home)
            env = {k: v for k, v in os.environ.items()
                   if not k.startswith("XDG_") and k not in
                   ("TINYLINGO_HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME")}
            env["HOME"] = str(home)
            out = subprocess.run([binary, "suggest", "--format", "jsonl", "--assistant", assistant],
                                 env=env, capture_output=True, text=True, check=True)
            got[assistant] = {json.loads(l)["term"].lower() for l in out.stdout.splitlines() if l}
    return got


def main():
    binary = sys.argv[1]
    split = sys.argv[2] if len(sys.argv) > 2 else "fresh"
    cases = make_corpus.load(split)
    for lang in ("all", "zh", "en"):
        mine = [c for c in cases if lang == "all" or c["lang"] == lang]
        expected = {c["expect"].lower(): c for c in mine if c["expect"]}
        got = scan(binary, mine)
        tp = sum(len(g & expected.keys()) for g in got.values())
        fp = sum(len(g - expected.keys()) for g in got.values())
        fn = sum(len(expected.keys() - g) for g in got.values())
        p, r = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
        print(f"{split} {lang}: precision {p:.3f} recall {r:.3f} (tp {tp}, fp {fp}, fn {fn})")
        if lang != "all":
            continue
        for term, case in expected.items():
            missed = [a for a in ASSISTANTS if term not in got[a]]
            if missed:
                print(f"  missed  {case['expect']!r} ({case['kind']}, {case['lang']}) in {','.join(missed)}")
        for term in sorted(set().union(*got.values()) - expected.keys()):
            where = [a for a in ASSISTANTS if term in got[a]]
            # The case it came from, found by its text: good enough to name the kind.
            source = [f"{c['kind']}, {c['lang']}" for c in mine
                      if term in (c["user"] + (c.get("tool") or "")).lower()]
            print(f"  false   {term!r} ({'; '.join(source) or '?'}) in {','.join(where)}")


if __name__ == "__main__":
    main()
