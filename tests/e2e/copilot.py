"""End-to-end checks of tinylingo with the real GitHub Copilot CLI (npm @github/copilot, pinned
in package.json), talking to a fake OpenAI-compatible chat-completions server on 127.0.0.1.
The checks themselves are in hookfile.py.

Setup facts (Copilot CLI 1.0.102), learned by running it:
- No GitHub login: `COPILOT_OFFLINE=true` with `COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:PORT/v1`,
  `COPILOT_PROVIDER_API_KEY` (any) and `COPILOT_MODEL`; `copilot -p PROMPT` runs one prompt
  headless. One chat-completions request per prompt (streamed, 17 tools, the first `bash`).
- The npm package starts a native binary that unpacks its JavaScript into
  `$XDG_CACHE_HOME/copilot/pkg/` (~235 MB, ~5 s) on first start: the driver points
  XDG_CACHE_HOME at a folder in the client cache so that it happens once.
- Hooks: every `*.json` in ~/.copilot/hooks/ loads in -p mode. The prompt event is
  `{"sessionId","timestamp","cwd","prompt"}`; a top-level `{"additionalContext": …}` on stdout
  is appended to the user message as `\\n\\n<system_reminder>\\n…\\n</system_reminder>`, not
  escaped. A hook command that fails (exit 127, the binary gone) is skipped: the prompt goes
  through without a word. `agentStop` gives `transcriptPath` (session-state/<id>/events.jsonl,
  whose `assistant.message` entry, model and content, is written before the hook runs).
- ~/.copilot/copilot-instructions.md reaches the system message whole, markers included.
- MCP: `mcpServers` in ~/.copilot/mcp-config.json, tools named `tinylingo-record` and so on;
  headless, a call needs `--allow-tool 'tinylingo(record)'` (no setting in a file allows it).
- Copilot writes session-state/, logs/ and more into ~/.copilot when it runs, so the uninstall
  check never runs the client.
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import hookfile  # noqa: E402


class Copilot(hookfile.Client):
    name = "copilot"
    folder = ".copilot"
    hook_file = "hooks/tinylingo.json"
    prompt_event = "userPromptSubmitted"
    after_event = "agentStop"
    rules = "copilot-instructions.md"

    # Copilot keeps tool approvals on the command line only.
    mcp_flags = ["--allow-tool", "tinylingo(record)"]

    def command(self, prompt):
        return [common.client_bin("copilot"), "-s", "--no-auto-update", "-p", prompt]

    def env(self):
        cache = os.path.join(os.environ["E2E_CLIENTS"], "copilot-cache")
        return self.home.env(COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=self.model.url
                             + "/v1", COPILOT_PROVIDER_API_KEY="fake-key", COPILOT_MODEL="m",
                             COPILOT_AUTO_UPDATE="false", XDG_CACHE_HOME=cache, NO_COLOR="1")


UNINSTALL_CASES = [
    ("a hook file of the user's", {"hooks/mine.json": '{"version": 1, "hooks": {}}\n'}),
    ("copilot-instructions.md", {"copilot-instructions.md": "Answer briefly.\n"}),
    ("mcp-config.json", {"mcp-config.json": '{\n  "mcpServers": {}\n}\n'}),
    ("empty ~/.copilot", {}),
]

if __name__ == "__main__":
    hookfile.main(Copilot, UNINSTALL_CASES)
