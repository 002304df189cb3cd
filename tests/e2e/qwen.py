"""End-to-end checks of tinylingo with the real Qwen Code (npm @qwen-code/qwen-code, pinned in
package.json), talking to a fake OpenAI-compatible chat-completions server on 127.0.0.1. The
checks themselves are in hookfile.py.

Setup facts (Qwen Code 0.15.10, the last release that runs on Node 20; 0.21 and later need
Node 22), learned by running it and reading its bundled cli.js:
- `qwen -p PROMPT --auth-type openai` with `OPENAI_API_KEY` (any), `OPENAI_BASE_URL=
  http://127.0.0.1:PORT/v1` and `OPENAI_MODEL`: no login. Besides the conversation (system
  prompt "You are Qwen Code…") it sends side requests with tools of their own (the managed
  memory extraction), so the conversation is told by its system prompt.
- Hooks: `hooks.UserPromptSubmit` in ~/.qwen/settings.json, Claude Code's grouped shape, the
  timeout in ms; run through bash with the event on stdin (`session_id`, `transcript_path`,
  `cwd`, `hook_event_name`, `timestamp`, `prompt`). `hookSpecificOutput.additionalContext` is
  added to the user message as a text part, every `<` and `>` escaped; plain stdout is not
  context. A failing command's stderr becomes a warning (exit 1 or 127) or a deny (exit 2).
  `Stop` gives `last_assistant_message`; the transcript's `assistant` entries name the model.
- On its first start Qwen rewrites settings.json: it adds `"$version": 4` and reformats the
  file (keeping a `settings.json.orig`), so the uninstall check never runs the client.
- ~/.qwen/QWEN.md reaches the system prompt whole, markers included.
- MCP: `mcpServers` in settings.json; the tools are declared lazily (named in the system prompt
  as `mcp__tinylingo__record` and so on, found through `tool_search`) and callable by name.
- Qwen relaunches itself in a second node process unless QWEN_CODE_NO_RELAUNCH is set (as
  Gemini CLI does); set, a prompt takes ~10 s here instead of ~20 s.
"""

import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import hookfile  # noqa: E402

# What the user's settings hold before install: no network of Qwen's own.
BASE_SETTINGS = {
    "privacy": {"usageStatisticsEnabled": False},
    "general": {"enableAutoUpdate": False},
    "memory": {"enableManagedAutoMemory": False},
}


class Qwen(hookfile.Client):
    name = "qwen"
    folder = ".qwen"
    hook_file = "settings.json"
    prompt_event = "UserPromptSubmit"
    after_event = "Stop"
    rules = "QWEN.md"

    def setup(self):
        self.dir.mkdir(exist_ok=True)
        (self.dir / "settings.json").write_text(json.dumps(BASE_SETTINGS, indent=2) + "\n")

    def command(self, prompt):
        return [common.client_bin("qwen"), "--auth-type", "openai", "-p", prompt]

    def env(self):
        # QWEN_CODE_NO_RELAUNCH: Qwen otherwise starts a second node process for itself
        # (each start parses its 26 MB bundle: seconds on a busy machine).
        return self.home.env(OPENAI_API_KEY="fake-key", OPENAI_BASE_URL=self.model.url + "/v1",
                             OPENAI_MODEL="m", NO_COLOR="1", QWEN_CODE_NO_RELAUNCH="true")

    @staticmethod
    def is_main(data):
        messages = data.get("messages") or [{}]
        return common.message_text(messages[0]).startswith("You are Qwen Code")


UNINSTALL_CASES = [
    ("commented settings.json", {"settings.json": "{\n  // mine\n  \"ui\": {\"theme\": "
                                 "\"GitHub\"} /* light */\n}\n"}),
    ("settings.json {}", {"settings.json": "{}"}),
    ("empty QWEN.md", {"QWEN.md": ""}),
    ("empty ~/.qwen", {}),
]

if __name__ == "__main__":
    hookfile.main(Qwen, UNINSTALL_CASES)
