"""End-to-end checks of tinylingo with the real Pi coding agent (npm
`@mariozechner/pi-coding-agent`, pinned in package.json), which talks to a fake OpenAI-compatible
chat-completions server on 127.0.0.1.

Setup facts (Pi 0.73.1, found by running it and reading its package's docs and dist/):
- The provider is declared in `~/.pi/agent/models.json` (`providers.fake` with `baseUrl`,
  `"api": "openai-completions"`, `apiKey`, `models: [{"id": "m"}]`); `pi -p --provider fake
  --model m PROMPT` answers once and exits. `compat.supportsDeveloperRole: false` makes it send
  the system prompt as `system`. `PI_OFFLINE=1` turns off its update checks and telemetry.
  Nothing but 127.0.0.1 is contacted. Node 20 runs it (engines: node >= 20.6).
- Pi has no hook command: tinylingo installs a TypeScript extension,
  `~/.pi/agent/extensions/tinylingo.ts`, which Pi loads with jiti (no build step). Its
  `before_agent_start` handler runs `tinylingo hook pi` and returns `{message: {customType,
  content, display: false}}`; Pi sends such a message to the model as a second user message
  right after the prompt: `[{"role": "user", "content": [{"type": "text", "text": PROMPT}]},
  {"role": "user", "content": [{"type": "text", "text": "<system-reminder>…"}]}]`.
- An extension that throws is logged and skipped: the prompt goes through. Ours catches every
  failure anyway (a missing binary is a spawn error, answered with no message).
- `~/.pi/agent/AGENTS.md` reaches the system message whole, markers included.
- Thread journal (check `journal entry`): the extension's `agent_end` handler gets the
  prompt's messages (the user's, ours with role "custom", the assistant's with `model` "m")
  and runs `tinylingo hook pi after`; `pi -p` waits for it before exiting.
- Pi sends one request per prompt (no title request), with `tools` (read, bash, edit, write).
"""

import json
import os
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import EXPLANATION, HIT_PROMPT, MISS_PROMPT, TERM, Home  # noqa: E402
from opencode import ChatCompletions, data_text, instruction_block  # noqa: E402

CLIENT = "pi"
CHECKS = ["hook ran", "explanation reached model", "instructions reached model",
          "no term, nothing of ours", "broken: binary gone", "journal entry",
          "uninstall restores files"]
RUN_TIMEOUT = 60
DEADLINE = time.monotonic() + 240  # the runner kills a driver at 300 s
reported = set()


def report(check, status, detail=""):
    reported.add(check)
    common.report(CLIENT, check, status, detail)


class Pi:
    """A temporary home with Pi configured for the fake model."""

    def __init__(self, model):
        self.model = model
        self.home = Home()
        self.dir = self.home.root / ".pi" / "agent"
        self.dir.mkdir(parents=True)
        (self.dir / "models.json").write_text(json.dumps({"providers": {"fake": {
            "baseUrl": f"{model.url}/v1",
            "api": "openai-completions",
            "apiKey": "x",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "m"}],
        }}}, indent=2) + "\n")

    def env(self):
        env = {k: v for k, v in self.home.env().items() if not k.startswith("PI_")}
        return dict(env, PI_OFFLINE="1")

    def run(self, prompt):
        """`pi -p PROMPT`; returns the CompletedProcess (timeout → returncode None)."""
        self.model.clear()
        timeout = max(5, min(RUN_TIMEOUT, DEADLINE - time.monotonic()))
        argv = [common.client_bin("pi"), "-p", "--provider", "fake", "--model", "m", prompt]
        return common.run_client(argv, self.env(), self.home.work, timeout)

    def cleanup(self):
        self.home.cleanup()


def outcome(proc):
    if proc.returncode is None:
        return "pi timed out (killed)"
    tail = " ".join((proc.stderr or proc.stdout or "").split())[-200:]
    return f"pi exit {proc.returncode}: {tail}"


def after_prompt(model, prompt):
    """The texts of the user messages that follow the one holding `prompt`, in the request that
    carries it; None when no request does."""
    for data in model.main_requests():
        messages = data.get("messages", [])
        texts = [(m.get("role"), data_text({"messages": [m]})) for m in messages]
        for i, (role, text) in enumerate(texts):
            if role == "user" and text.strip() == prompt:
                return [t for r, t in texts[i + 1:] if r == "user"]
    return None


def check_session(model):
    pi = Pi(model)
    home = pi.home
    try:
        home.tinylingo("install", "pi")
        block = instruction_block(pi.dir)
        home.tinylingo("record", TERM, EXPLANATION)
        home.tinylingo("config", "debug", "true")
        log = home.root / ".config" / "tinylingo" / "debug.log"
        proc = pi.run(HIT_PROMPT)
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        ours = [line for line in lines if " pi" in line or "pi:" in line]
        added = after_prompt(model, HIT_PROMPT)
        mains = [data_text(d) for d in model.main_requests()]
        if ours:
            report("hook ran", "pass", ours[-1])
        else:
            report("hook ran", "fail", f"no pi line in debug.log; {outcome(proc)}")
        if added is None:
            report("explanation reached model", "fail", f"no request with the prompt; "
                   f"{outcome(proc)}")
        elif any(EXPLANATION in t and "[TinyLingo]" in t for t in added):
            report("explanation reached model", "pass", "a user message after the prompt")
        else:
            report("explanation reached model", "fail", f"messages after the prompt: {added}")
        if not block:
            report("instructions reached model", "fail", "no block in ~/.pi/agent/AGENTS.md")
        elif any(block in t for t in mains):
            report("instructions reached model", "pass")
        else:
            report("instructions reached model", "fail", f"block not in the request; "
                   f"{outcome(proc)}")
        home.tinylingo("config", "debug", "false")

        proc = pi.run(MISS_PROMPT)
        added = after_prompt(model, MISS_PROMPT)
        texts = [data_text(d) for d in model.parsed()]
        leaked = [s for s in (EXPLANATION, "[TinyLingo]") if any(s in t for t in texts)]
        if proc.returncode != 0 or added is None:
            report("no term, nothing of ours", "fail", outcome(proc))
        elif leaked or added:
            report("no term, nothing of ours", "fail", f"found {leaked or added}")
        else:
            report("no term, nothing of ours", "pass")

        link = home.root / ".config" / "tinylingo" / "scripts" / "tinylingo"
        link.unlink()
        proc = pi.run(HIT_PROMPT)
        added = after_prompt(model, HIT_PROMPT)
        if proc.returncode != 0 or added is None:
            report("broken: binary gone", "fail", f"the prompt did not go through: "
                   f"{outcome(proc)}")
        elif added:
            report("broken: binary gone", "fail", f"the request gained {added[0][:150]!r}")
        else:
            report("broken: binary gone", "pass", "prompt sent, nothing added")
    finally:
        pi.cleanup()


def check_journal(model):
    pi = Pi(model)

    def exchange(prompt, reply):
        model.replies = [reply]
        proc = pi.run(prompt)
        model.replies = []
        mains = model.main_requests()
        reached = after_prompt(model, prompt) is not None
        return common.Exchange(
            asked=mains[0].get("model") if mains else None,
            answer_problem="" if proc.returncode == 0 and reply in (proc.stdout or "") else (
                outcome(proc)),
            prompt_problem="" if proc.returncode == 0 and reached else outcome(proc))

    try:
        report(common.JOURNAL_CHECK, *common.check_journal(
            "pi", pi.home, exchange,
            model_source="the assistant message's model (agent_end)",
            found_in="from the extension's agent_end messages",
            plugin=pi.dir / "extensions" / "tinylingo.ts"))
    finally:
        pi.cleanup()


def check_uninstall():
    homes = []
    try:
        # The user had models.json, an empty AGENTS.md and an extensions folder with their own
        # extension.
        home = Home()
        homes.append(home)
        folder = home.root / ".pi" / "agent"
        (folder / "extensions").mkdir(parents=True)
        (folder / "extensions" / "mine.ts").write_text("export default function (pi) {}\n")
        (folder / "AGENTS.md").write_bytes(b"")
        (folder / "models.json").write_text('{\n  "providers": {}\n}\n')
        before = common.snapshot(folder)
        home.tinylingo("install", "pi")
        installed = common.snapshot(folder)
        home.tinylingo("uninstall", "pi")
        problems = []
        if installed == before:
            problems.append("install changed nothing")
        diff = common.snapshot_diff(before, common.snapshot(folder))
        if diff:
            problems.append(f"with files: {diff}")

        # No Pi folder at all: install names it, uninstall takes all of it away again.
        home = Home()
        homes.append(home)
        home.tinylingo("install", "pi")
        home.tinylingo("uninstall", "pi")
        if (home.root / ".pi").exists():
            problems.append(f"no folder before: left {common.snapshot(home.root / '.pi')}")
        report("uninstall restores files", "fail" if problems else "pass", "; ".join(problems))
    finally:
        for home in homes:
            home.cleanup()


def main():
    common.binary()
    exe = common.client_bin("pi")
    try:
        if not os.access(exe, os.X_OK):
            for check in CHECKS[:-1]:
                report(check, "skip", f"no pi at {exe}")
        else:
            model = ChatCompletions()
            try:
                check_session(model)
                check_journal(model)
            finally:
                model.stop()
        check_uninstall()
    except Exception as e:  # the checks not reached yet fail, with the reason
        for check in CHECKS:
            if check not in reported:
                report(check, "fail", f"driver error before this check: {type(e).__name__}: {e}")
        raise


if __name__ == "__main__":
    main()
