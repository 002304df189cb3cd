"""End-to-end checks of issue #37 (points 3 and 5) with the real clients, each against its
driver's fake model server, in a temporary HOME:

- review command reaches model: after `tinylingo install <client>`, the review command run
  headless (`/tinylingo-review`, Codex CLI's skill `$tinylingo-review`, OpenCode's and Kilo's
  `run --command`) puts the command file's text in a request to the model.
- capture: inbox without suggest: a turn in which the user defines a term; once it has
  ended, `tinylingo inbox --format json` holds the term, and `suggest` never ran.
- notice reaches user once: the next two prompts; the notice of the new proposal is in what
  the client shows the user (its stdout or stderr) exactly once, and in no request. Headless,
  Gemini CLI prints "Hook system message: …" on stderr; Claude Code reports the hook's
  `systemMessage` among its hook events (`--include-hook-events`); `codex exec` prints it
  nowhere (skipped, the hook having taken the news).

    TINYLINGO_BIN=… E2E_CLIENTS=~/.cache/tinylingo-e2e python3 tests/e2e/review.py [client…]

With REVIEW_FIXTURES=<folder>, each command file a client was shown to load is copied there
(`<client>/<its path under HOME>`): that is how tests/fixtures/review/ was made.

The result lines go under each client's own column of the table (`tests/e2e/run review`).
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

REVIEW = "review command reaches model"
CAPTURE = "capture: inbox without suggest"
NOTICE = "notice reaches user once"
# Two sentences of src/platform/review.md, its first and its last instruction: the whole text
# went, not only the command's name or description.
NEEDLES = ["Review the glossary proposals tinylingo found in the",
           "Never accept or reject a proposal the user did not decide on"]
DEFINED = "PX-42"
DEFINE_PROMPT = "我们项目里把支付网关服务叫做 PX-42，代码在 services/payments/ 下"
CONFIRM = "明白：PX-42 就是支付网关服务（services/payments/）。"
# The notice in either language (LANG decides; capture.rs `notice`).
NOTICE_MARKS = ["新的术语建议", "new glossary proposal"]
# The clients whose after-response hook feeds the capture (src/platform `captures`); why the
# others have no capture row, and so no notice row.
CAPTURING = ("claude", "codex", "gemini")
NO_CAPTURE = {
    "opencode": "the capture reads a session file the after-response event names; OpenCode's "
                "plugin has none to hand it (suggest reads its sessions)",
    "kilo": "no session store suggest reads; the plugin's session.idle names no file",
    "qwen": "no session store suggest reads",
    "copilot": "no session store suggest reads",
    "pi": "no session store suggest reads; no after-response event",
}


def bodies(model):
    return [b for (_, _, _, b) in list(model.requests)]


def missing_needles(model):
    found = bodies(model)
    return [n for n in NEEDLES if not any(n in b for b in found)]


def keep_fixture(client, home, rel):
    dest = os.environ.get("REVIEW_FIXTURES")
    if not dest:
        return
    target = Path(dest) / client / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(home.root / rel, target)


def outcome(proc):
    if proc.returncode is None:
        return "timed out (killed)"
    tail = " ".join((proc.stderr or proc.stdout or "").split())[-160:]
    return f"exit {proc.returncode}: {tail}"


def check_review(c):
    """The review command, run headless, puts its text in a request."""
    c.home.tinylingo("install", c.name)
    rel = c.review_file
    if not (c.home.root / rel).exists():
        common.report(c.name, REVIEW, "fail", f"install wrote no ~/{rel}")
        return
    c.model.replies = ["No pending proposals."]
    proc = c.review()
    missing = missing_needles(c.model)
    if missing:
        common.report(c.name, REVIEW, "fail",
                      f"`{c.how}`: {len(bodies(c.model))} request(s), none holds {missing[0]!r}; "
                      f"{outcome(proc)}")
        return
    keep_fixture(c.name, c.home, rel)
    common.report(c.name, REVIEW, "pass", f"`{c.how}` sent ~/{rel}'s text to the model")


def wait_for_inbox(home, term, seconds=20):
    """The pending proposals once `term` is among them, or what there is after `seconds`
    (the capture runs detached after the turn)."""
    until = time.monotonic() + seconds
    while True:
        out = home.tinylingo("inbox", "--format", "json", check=False)
        try:
            pending = json.loads(out.stdout or "[]")
        except ValueError:
            pending = []
        terms = [p.get("term") for p in pending]
        if term in terms or time.monotonic() > until:
            return terms
        time.sleep(0.5)


def check_capture(c):
    """A definition typed in a turn reaches the inbox without `suggest`; the notice reaches
    the user once, the model never."""
    c.model.replies = [CONFIRM]
    proc = c.run(DEFINE_PROMPT)
    terms = wait_for_inbox(c.home, DEFINED)
    scanned = (c.home.root / ".config" / "tinylingo" / "scanned.json").exists()
    if DEFINED in terms:
        common.report(c.name, CAPTURE, "pass",
                      f"inbox holds {DEFINED} after the turn (no suggest run); pending {terms}")
    else:
        common.report(c.name, CAPTURE, "fail",
                      f"inbox {terms} after 20 s; scan state {'there' if scanned else 'none'}; "
                      f"{outcome(proc)}")
        return
    news = c.home.root / ".config" / "tinylingo" / "capture.news"
    shown, sent = 0, 0
    for prompt in ("继续", "好的"):
        c.model.replies = ["ok"]
        proc = c.run(prompt, notice=True)
        seen = (proc.stdout or "") + (proc.stderr or "")
        # Once per run at most (Claude Code's hook event repeats the hook's stdout).
        shown += any(m in seen for m in NOTICE_MARKS)
        sent += sum(b.count(m) for b in bodies(c.model) for m in NOTICE_MARKS)
    detail = f"shown to the user {shown} time(s) over two prompts, sent to the model {sent}"
    if c.name == "codex" and shown == 0 and sent == 0 and not news.exists():
        # The hook took the news and answered with `systemMessage`, which Codex's TUI shows
        # as a warning line of the hook's run; `codex exec` prints it nowhere (text or --json).
        common.report(c.name, NOTICE, "skip", "codex exec shows no hook systemMessage "
                      "(the TUI does); the hook took the news, the model got nothing")
        return
    common.report(c.name, NOTICE, "pass" if shown == 1 and sent == 0 else "fail", detail)


class Client:
    """A client set up for these checks: `run(prompt)` one headless prompt, `review()` the
    review command, `how` what that runs, `review_file` where install writes it."""

    name = ""
    how = "/tinylingo-review"
    review_file = ""

    def review(self):
        return self.run(self.how)

    def stop(self):
        self.model.stop()
        self.home.cleanup()


class Claude(Client):
    name = "claude"
    review_file = ".claude/commands/tinylingo-review.md"

    def __init__(self):
        import claude
        self.mod = claude
        self.model = claude.AnthropicModel()
        self.home = common.Home()

    def run(self, prompt, notice=False):
        # Headless, Claude Code shows the user a hook's `systemMessage` only among the hook
        # events of its stream (interactive, it prints it in the conversation).
        extra = ["--output-format", "stream-json", "--verbose", "--include-hook-events"]
        r = self.mod.Run(self.home, self.model, prompt, *(extra if notice else []))
        return subprocess.CompletedProcess([], r.code if r.code != "timeout" else None,
                                                  r.stdout, r.stderr)


class Codex(Client):
    name = "codex"
    how = "$tinylingo-review"
    review_file = ".codex/skills/tinylingo-review/SKILL.md"

    def __init__(self):
        import codex
        self.mod = codex
        self.model = codex.ResponsesModel()
        self.home = codex.new_home(self.model)

    def run(self, prompt, notice=False):
        self.model.clear()
        code, out, err = self.mod.run_codex(self.home, prompt)
        return subprocess.CompletedProcess([], code if isinstance(code, int) else None, out, err)


class Gemini(Client):
    name = "gemini"
    review_file = ".gemini/commands/tinylingo-review.toml"

    def __init__(self):
        import gemini
        self.model = gemini.FakeGemini()
        self.g = gemini.Gemini(self.model)
        self.g.write_settings(gemini.BASE_SETTINGS)
        self.home = self.g.home

    def run(self, prompt, notice=False):
        self.model.clear()
        proc, _ = self.g.run(prompt)
        return proc or subprocess.CompletedProcess([], None, "", "")


class Wrapped(Client):
    """A client of the hookfile or plugin drivers (their Client does the running)."""

    def run(self, prompt, notice=False):
        self.model.clear()
        return self.c.run(prompt)


class HookFile(Wrapped):
    """A client of hookfile.py: its driver module is the client's name, its class `cls`."""

    cls = ""

    def __init__(self):
        import importlib
        import hookfile
        client = getattr(importlib.import_module(self.name), self.cls)
        self.model = hookfile.ChatFake(client.is_main)
        self.c = client(self.model)
        self.c.setup()
        self.home = self.c.home


class Qwen(HookFile):
    name = "qwen"
    cls = "Qwen"
    review_file = ".qwen/commands/tinylingo-review.md"


class Copilot(HookFile):
    """`copilot -p /tinylingo-review` passes the words on as they are; the skill is listed to
    the model (name, description), whose `skill` tool loads its text: the fake model calls it,
    as its instructions say to ("invoking it is mandatory and must be your first action")."""

    name = "copilot"
    cls = "Copilot"
    how = "/tinylingo-review, then the model's skill tool"
    review_file = ".copilot/skills/tinylingo-review/SKILL.md"

    def review(self):
        self.model.replies = [{"tool": "skill", "input": {"skill": "tinylingo-review"}},
                              "No pending proposals."]
        return self.run("/tinylingo-review")


class Plugin(Wrapped):
    """A client of plugin.py: its driver module is the client's name, its class `cls`."""

    cls = ""

    def __init__(self):
        import importlib
        import plugin
        self.module = importlib.import_module(self.name)
        self.model = plugin.ChatCompletions()
        self.c = getattr(self.module, self.cls)(self.model, *self.extra())
        self.home = self.c.home

    def extra(self):
        return ()


class Pi(Plugin):
    name = "pi"
    cls = "Pi"
    review_file = ".pi/agent/prompts/tinylingo-review.md"


class RunCommand(Plugin):
    """OpenCode and Kilo: `<client> run --command tinylingo-review` (a message is optional
    there; one is given, as a user would)."""

    @property
    def how(self):
        return f"{self.name} run --command tinylingo-review"

    def review(self):
        self.model.clear()
        argv = [self.exe(), "run", "--command", "tinylingo-review", "now"]
        return common.run_client(argv, self.c.env(), self.home.work, self.c.run_timeout)


class OpenCode(RunCommand):
    name = "opencode"
    cls = "OpenCode"
    review_file = ".config/opencode/commands/tinylingo-review.md"

    def extra(self):
        return (self.module.seed_config_deps(),)

    def exe(self):
        return common.client_bin("opencode")


class Kilo(RunCommand):
    name = "kilo"
    cls = "Kilo"
    review_file = ".config/kilo/command/tinylingo-review.md"

    def exe(self):
        return self.module.kilo_bin()


CLIENTS = {c.name: c for c in (Claude, Codex, Gemini, Qwen, Copilot, Pi, OpenCode, Kilo)}


def main():
    common.binary()
    names = sys.argv[1:] or list(CLIENTS)
    for name in names:
        c = None
        try:
            c = CLIENTS[name]()
            check_review(c)
            if name in CAPTURING:
                check_capture(c)
            else:
                for check in (CAPTURE, NOTICE):
                    common.report(name, check, "skip", NO_CAPTURE[name])
        except Exception as e:  # noqa: BLE001 — a driver error is this client's failure
            common.report(name, REVIEW, "fail", f"driver error: {type(e).__name__}: {e}")
        finally:
            if c is not None:
                c.stop()


if __name__ == "__main__":
    main()
