"""The real Claude Code client through the hook an npm install registered (tests/npm/run runs
this): `tinylingo install claude` through the npm launcher ($TINYLINGO_BIN, the global bin
under $NPM_PREFIX), a term recorded, a headless prompt that mentions it; the explanation must
reach the (fake) model. Reuses the e2e driver's fake Anthropic server and client run."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
from claude import AnthropicModel, Run, contains  # noqa: E402
from common import EXPLANATION, HIT_PROMPT, TERM, Home  # noqa: E402


def main():
    prefix = os.environ["NPM_PREFIX"]
    model, home = AnthropicModel(), Home()
    try:
        home.tinylingo("install", "claude")
        link = home.root / ".config" / "tinylingo" / "scripts" / "tinylingo"
        target = os.readlink(link)
        if not (target.startswith(prefix + "/") and "/node_modules/tinylingo-" in target):
            sys.exit(f"claude.py: the scripts link points at {target}, not the npm install's binary")
        home.tinylingo("record", TERM, EXPLANATION)
        model.replies = ["hit-answer"]
        run = Run(home, model, HIT_PROMPT)
        if not contains(run.main, EXPLANATION):
            sys.exit(f"claude.py: the explanation did not reach the model; {run.describe()}")
        print(f"claude.py: Claude Code sent the explanation to the model ({run.describe()})",
              file=sys.stderr)
    finally:
        model.stop()
        home.cleanup()


if __name__ == "__main__":
    main()
