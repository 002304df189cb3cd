"""End-to-end checks of tinylingo with the real Kilo CLI (npm `@kilocode/cli-linux-x64`, pinned
in package.json), which talks to a fake OpenAI-compatible chat-completions server on 127.0.0.1.

Setup facts (Kilo 7.7.9, found by running it and reading its bundled source):
- The meta package `@kilocode/cli` pins platform builds that are not all published; the suite
  installs the Linux x64 build directly (`bin/kilo`, a Bun single-file binary: Node's version
  does not matter).
- Kilo is an OpenCode fork: the provider is declared as OpenCode's, in `~/.config/kilo/kilo.json`
  (also read: config.json, kilo.jsonc, opencode.json, opencode.jsonc); plugins load from
  `{plugin,plugins}/*.{ts,js}` in the config folder, with OpenCode's `chat.message` hook and
  `session.idle` event, so tinylingo installs OpenCode's plugin, running `tinylingo hook kilo`.
  The global AGENTS.md is `~/.config/kilo/AGENTS.md` (Kilo reads `~/.claude/CLAUDE.md` instead
  only when that file is missing).
- The plugin's part arrives as the second text part of the user message, before Kilo's own
  `<environment_details>` part. AGENTS.md reaches the system message whole.
- Kilo rewrites kilo.json on its first run (adds `$schema`) and writes `.gitignore` and marker
  files into the config folder, so the uninstall check never runs the client.
- A run tries `npm install @kilocode/plugin@7.7.9` into the config folder in the background (that
  version is not published: it fails and changes nothing) and spends 20 s of CPU or more
  starting up: one run takes 40-75 s on a busy 2-core machine. The driver therefore runs Kilo
  three times only: the journal check's two exchanges (the first prompt names the recorded
  term, the second none) also give the injection checks, and one run with the binary gone.
- `kilo run` reads piped stdin into the message (stdin is /dev/null) and takes the project
  folder from `$PWD`; prompts hold no ASCII space (as for OpenCode, `run` would quote them).
"""

import json
import os
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import EXPLANATION, TERM, Home  # noqa: E402
from opencode import (ChatCompletions, data_text, instruction_block,  # noqa: E402
                      message_text)

CLIENT = "kilo"
MARK = "[TinyLingo]"
CHECKS = ["hook ran", "explanation reached model", "instructions reached model",
          "no term, nothing of ours", "broken: binary gone", "journal entry",
          "uninstall restores files"]
RUN_TIMEOUT = 120
DEADLINE = time.monotonic() + 285  # the runner kills a driver at 300 s
reported = set()


def report(check, status, detail=""):
    reported.add(check)
    common.report(CLIENT, check, status, detail)


def kilo_bin():
    return str(Path(os.environ["E2E_CLIENTS"]) / "node_modules" / "@kilocode" / "cli-linux-x64"
               / "bin" / "kilo")


class Kilo:
    """A temporary home with Kilo configured for the fake model."""

    def __init__(self, model):
        self.model = model
        self.home = Home()
        self.config = self.home.root / ".config" / "kilo"
        self.config.mkdir(parents=True)
        (self.config / "kilo.json").write_text(json.dumps({
            "provider": {"fake": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Fake",
                "options": {"baseURL": f"{model.url}/v1", "apiKey": "x"},
                "models": {"m": {"name": "m", "tool_call": True}},
            }},
            "model": "fake/m",
            "permission": {"bash": "allow"},
            "autoupdate": False,
            "share": "disabled",
        }, indent=2) + "\n")

    def env(self):
        env = {k: v for k, v in self.home.env().items()
               if not k.startswith(("KILO", "OPENCODE"))}
        off = ["MODELS_FETCH", "DEFAULT_PLUGINS", "AUTOUPDATE", "LSP_DOWNLOAD", "SHARE",
               "SESSION_INGEST", "PRESENCE", "CODEBASE_INDEXING", "EMBEDDED_WEB_UI"]
        env.update({f"KILO_DISABLE_{name}": "1" for name in off})
        # Kilo takes the project folder from $PWD, not from its working directory.
        return dict(env, KILO_TELEMETRY_LEVEL="off", PWD=str(self.home.work))

    def run(self, prompt):
        """`kilo run PROMPT`; returns the CompletedProcess (timeout → returncode None)."""
        self.model.clear()
        timeout = max(5, min(RUN_TIMEOUT, DEADLINE - time.monotonic()))
        argv = [kilo_bin(), "run", prompt]
        return common.run_client(argv, self.env(), self.home.work, timeout)

    def cleanup(self):
        self.home.cleanup()


def outcome(proc):
    if proc.returncode is None:
        return "kilo timed out (killed)"
    tail = " ".join((proc.stderr or proc.stdout or "").split())[-200:]
    return f"kilo exit {proc.returncode}: {tail}"


def user_parts(requests, prompt):
    """The text parts of the user message holding `prompt`, in the main requests; None when no
    request holds it."""
    for data in requests:
        for m in data.get("messages", []):
            if m.get("role") != "user" or prompt not in message_text(m):
                continue
            content = m.get("content")
            parts = content if isinstance(content, list) else [{"text": content}]
            return [p.get("text", "") for p in parts if isinstance(p, dict)]
    return None


def check_session(model):
    """The journal check's two exchanges, their requests kept: the first prompt names the
    recorded term, the second none; then a run with the binary gone."""
    kilo = Kilo(model)
    home = kilo.home
    seen = []  # (prompt, process, main requests) of each exchange

    def exchange(prompt, reply):
        model.replies = [reply]
        proc = kilo.run(prompt)
        model.replies = []
        mains = model.main_requests()
        seen.append((prompt, proc, mains))
        reached = proc.returncode == 0 and user_parts(mains, prompt) is not None
        return common.Exchange(
            asked=mains[0].get("model") if mains else None,
            answer_problem="" if proc.returncode == 0 and reply in (proc.stdout or "") else (
                outcome(proc)),
            prompt_problem="" if reached else (outcome(proc) if proc.returncode != 0 else
                                                "no request held the prompt"))

    try:
        home.tinylingo("record", TERM, EXPLANATION)
        home.tinylingo("config", "debug", "true")
        report(common.JOURNAL_CHECK, *common.check_journal(
            "kilo", home, exchange,
            model_source="the assistant message's modelID (session.messages)",
            found_in="from the plugin's session.messages",
            plugin=kilo.config / "plugin" / "tinylingo.js"))
        block = instruction_block(kilo.config)
        log = home.root / ".config" / "tinylingo" / "debug.log"
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        if len(seen) < 2:
            raise RuntimeError(f"the journal check ran {len(seen)} exchanges, not 2")
        (hit, hit_proc, hit_mains), (miss, miss_proc, miss_mains) = seen[:2]
        if TERM not in hit or TERM in miss:
            raise RuntimeError("the journal prompts no longer suit the injection checks")

        ours = [line for line in lines if "kilo" in line]
        report("hook ran", "pass" if ours else "fail",
               ours[0] if ours else f"no kilo line in debug.log; {outcome(hit_proc)}")
        parts = user_parts(hit_mains, hit)
        if parts is None:
            report("explanation reached model", "fail", f"no request with the prompt; "
                   f"{outcome(hit_proc)}")
        elif any(EXPLANATION in p and MARK in p for p in parts):
            report("explanation reached model", "pass", "a text part of the user message")
        else:
            report("explanation reached model", "fail", f"user message parts: {parts}")
        texts = [data_text(d) for d in hit_mains]
        if not block:
            report("instructions reached model", "fail", "no block in ~/.config/kilo/AGENTS.md")
        elif any(block in t for t in texts):
            report("instructions reached model", "pass")
        else:
            report("instructions reached model", "fail", f"block not in the request; "
                   f"{outcome(hit_proc)}")
        parts = user_parts(miss_mains, miss)
        if parts is None:
            report("no term, nothing of ours", "fail", f"no request with the prompt; "
                   f"{outcome(miss_proc)}")
        elif any(MARK in data_text(d) or EXPLANATION in data_text(d) for d in miss_mains):
            report("no term, nothing of ours", "fail", f"user message parts: {parts}")
        else:
            report("no term, nothing of ours", "pass")

        (home.root / ".config" / "tinylingo" / "scripts" / "tinylingo").unlink()
        proc = kilo.run(hit)
        parts = user_parts(model.main_requests(), hit)
        if proc.returncode != 0 or parts is None:
            report("broken: binary gone", "fail", f"the prompt did not go through: "
                   f"{outcome(proc)}")
        elif any(MARK in p for p in parts):
            report("broken: binary gone", "fail", "the explanation came without the binary")
        else:
            report("broken: binary gone", "pass", "prompt sent, nothing added")
    finally:
        kilo.cleanup()


def check_uninstall():
    homes = []
    try:
        # The user had a kilo.json with comments, an empty AGENTS.md and their own plugin.
        home = Home()
        homes.append(home)
        config = home.root / ".config" / "kilo"
        (config / "plugin").mkdir(parents=True)
        (config / "plugin" / "mine.js").write_text("export const Mine = async () => ({})\n")
        (config / "AGENTS.md").write_bytes(b"")
        (config / "kilo.json").write_text('{\n  // mine\n  "model": "fake/m",\n}\n')
        before = common.snapshot(config)
        home.tinylingo("install", "kilo", "--mcp")
        installed = common.snapshot(config)
        home.tinylingo("uninstall", "kilo")
        problems = []
        if installed == before:
            problems.append("install changed nothing")
        diff = common.snapshot_diff(before, common.snapshot(config))
        if diff:
            problems.append(f"with files: {diff}")

        # An empty config folder the user had.
        home = Home()
        homes.append(home)
        config = home.root / ".config" / "kilo"
        config.mkdir(parents=True)
        home.tinylingo("install", "kilo")
        home.tinylingo("uninstall", "kilo")
        diff = common.snapshot_diff(({}, set()), common.snapshot(config))
        if not config.is_dir():
            problems.append("empty folder: ~/.config/kilo gone")
        elif diff:
            problems.append(f"empty folder: {diff}")
        report("uninstall restores files", "fail" if problems else "pass", "; ".join(problems))
    finally:
        for home in homes:
            home.cleanup()


def main():
    common.binary()
    try:
        if not os.access(kilo_bin(), os.X_OK):
            for check in CHECKS[:-1]:
                report(check, "skip", f"no kilo at {kilo_bin()}")
        else:
            model = ChatCompletions()
            try:
                check_session(model)
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
