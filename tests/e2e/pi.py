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
import plugin  # noqa: E402
from common import EXPLANATION, HIT_PROMPT, MISS_PROMPT, TERM  # noqa: E402
from plugin import data_text  # noqa: E402

driver = plugin.Driver("pi", [
    "hook ran", "explanation reached model", "instructions reached model",
    "no term, nothing of ours", "broken: binary gone", "journal entry",
    "uninstall restores files"])


class Pi(plugin.Client):
    """A temporary home with Pi configured for the fake model."""

    name = "pi"
    folder = ".pi/agent"
    deadline = time.monotonic() + 240

    def configure(self):
        (self.dir / "models.json").write_text(json.dumps({"providers": {"fake": {
            "baseUrl": f"{self.model.url}/v1",
            "api": "openai-completions",
            "apiKey": "x",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "m"}],
        }}}, indent=2) + "\n")

    def env(self):
        env = {k: v for k, v in self.home.env().items() if not k.startswith("PI_")}
        return dict(env, PI_OFFLINE="1")

    def command(self, prompt):
        return [common.client_bin("pi"), "-p", "--provider", "fake", "--model", "m", prompt]


def after_prompt(model, prompt):
    """The texts of the user messages that follow the one holding `prompt`, in the request that
    carries it (Pi sends the extension's message as one of those); None when no request does."""
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
        block = pi.block()
        home.tinylingo("record", TERM, EXPLANATION)
        home.tinylingo("config", "debug", "true")
        proc = pi.run(HIT_PROMPT)
        driver.hook_ran([line for line in plugin.debug_lines(home)
                         if " pi" in line or "pi:" in line], proc, pi)
        driver.explanation(after_prompt(model, HIT_PROMPT), proc, pi,
                           "a user message after the prompt")
        driver.instructions(block, [data_text(d) for d in model.main_requests()], proc, pi)
        home.tinylingo("config", "debug", "false")

        proc = pi.run(MISS_PROMPT)
        added = after_prompt(model, MISS_PROMPT)
        driver.nothing_of_ours(added is not None, [data_text(d) for d in model.parsed()], proc,
                               pi, gained=added or [])

        (home.root / ".config" / "tinylingo" / "scripts" / "tinylingo").unlink()
        proc = pi.run(HIT_PROMPT)
        driver.binary_gone(after_prompt(model, HIT_PROMPT), proc, pi)
    finally:
        pi.cleanup()


def check_journal(model):
    pi = Pi(model)
    try:
        driver.journal(pi, pi.dir / "extensions" / "tinylingo.ts",
                       model_source="the assistant message's model (agent_end)",
                       found_in="from the extension's agent_end messages")
    finally:
        pi.cleanup()


def seed_user_files(folder):
    """The user had models.json, an empty AGENTS.md and their own extension."""
    (folder / "extensions").mkdir()
    (folder / "extensions" / "mine.ts").write_text("export default function (pi) {}\n")
    (folder / "AGENTS.md").write_bytes(b"")
    (folder / "models.json").write_text('{\n  "providers": {}\n}\n')


def main():
    exe = common.client_bin("pi")

    def with_model(model):
        check_session(model)
        check_journal(model)

    driver.main(os.access(exe, os.X_OK), exe, with_model,
                lambda: driver.uninstall(Pi, seed_user_files, none_before=".pi"))


if __name__ == "__main__":
    main()
