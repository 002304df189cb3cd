"""End-to-end check of `tinylingo suggest` with the real clients: in a temporary HOME each client
runs a session in which the user defines a term (and one prompt that carries our injected
context), and `tinylingo suggest --format jsonl` must then propose that term, drawn from the
session store the client wrote.

    TINYLINGO_BIN=… E2E_CLIENTS=~/.cache/tinylingo-e2e python3 tests/e2e/learn.py [client…]

With LEARN_FIXTURES=<folder> the session stores the clients wrote are copied there (one
folder per client): that is how tests/fixtures/sessions/ was made.

It reuses each client's driver (its fake model server and how it runs the client headless).
One result line per client: learn:<client>  suggest proposes the term  pass|fail.
"""

import json
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import EXPLANATION, HIT_PROMPT, TERM  # noqa: E402

CHECK = "suggest proposes the term"
DEFINED = "PX-42"
DEFINE_PROMPT = "我们项目里把支付网关服务叫做 PX-42，代码在 services/payments/ 下"
CONFIRM = "明白：PX-42 就是支付网关服务（services/payments/）。"
EN_PROMPT = "we call the staging cluster blue, it runs on k8s-stg"
EN_CONFIRM = "Got it: blue is the staging cluster (k8s-stg)."
ONE_OFF = "don't push this one yet"


def copy_store(src, client):
    dest = os.environ.get("LEARN_FIXTURES")
    if not dest or not Path(src).exists():
        return
    target = Path(dest) / client
    shutil.rmtree(target, ignore_errors=True)
    if Path(src).is_dir():
        shutil.copytree(src, target, symlinks=True)
    else:
        target.mkdir(parents=True)
        shutil.copy(src, target)


def check_suggest(client, home, store):
    copy_store(store, client)
    out = home.tinylingo("suggest", "--format", "jsonl", "--verbose", check=False)
    terms = []
    for line in out.stdout.splitlines():
        try:
            terms.append(json.loads(line).get("term"))
        except ValueError:
            pass
    ok = out.returncode == 0 and DEFINED in terms and TERM not in terms
    detail = f"exit {out.returncode}; proposed {terms}"
    if not ok:
        detail += f"; stderr: {out.stderr.strip()[-200:]}"
    common.report(f"learn:{client}", CHECK, "pass" if ok else "fail", detail)


def conversation(run, model):
    """The prompts every client gets: one that hits a recorded term (our injection lands in
    the store), a definition in Chinese, one in English, and a one-off instruction."""
    for prompt, reply in [(HIT_PROMPT, "好的"), (DEFINE_PROMPT, CONFIRM),
                          (EN_PROMPT, EN_CONFIRM), (ONE_OFF, "OK, not pushing.")]:
        model.replies = [reply]
        run(prompt)


def learn(client, model, home, run, store, setup=lambda: None):
    """One client's session in `home` (set up by `setup`), then `suggest` over `store`; the
    model and the home go away whatever happens."""
    try:
        setup()
        home.tinylingo("install", client)
        home.tinylingo("record", TERM, EXPLANATION)
        conversation(run, model)
        check_suggest(client, home, store)
    finally:
        model.stop()
        home.cleanup()


def learn_claude():
    import claude
    model = claude.AnthropicModel()
    home = common.Home()
    learn("claude", model, home, lambda p: claude.Run(home, model, p),
          home.root / ".claude" / "projects")


def learn_codex():
    import codex
    model = codex.ResponsesModel()
    home = codex.new_home(model)
    learn("codex", model, home, lambda p: codex.run_codex(home, p),
          home.root / ".codex" / "sessions")


def learn_gemini():
    import gemini
    model = gemini.FakeGemini()
    g = gemini.Gemini(model)
    learn("gemini", model, g.home, g.run, g.dir / "tmp",
          setup=lambda: g.write_settings(gemini.BASE_SETTINGS))


def learn_opencode():
    import opencode
    import plugin
    model = plugin.ChatCompletions()
    oc = opencode.OpenCode(model, opencode.seed_config_deps())
    learn("opencode", model, oc.home, oc.run, oc.home.root / ".local" / "share" / "opencode")


def main():
    common.binary()
    clients = sys.argv[1:] or ["claude", "codex", "gemini"]
    for client in clients:
        try:
            globals()[f"learn_{client}"]()
        except Exception as e:  # noqa: BLE001 — a driver error is this client's failure
            common.report(f"learn:{client}", CHECK, "fail", f"driver error: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
