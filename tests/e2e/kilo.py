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

import os
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
import plugin  # noqa: E402
from common import EXPLANATION, TERM  # noqa: E402
from plugin import data_text, user_parts  # noqa: E402

driver = plugin.Driver("kilo", [
    "hook ran", "explanation reached model", "instructions reached model",
    "no term, nothing of ours", "broken: binary gone", "journal entry",
    "uninstall restores files"])


def kilo_bin():
    return str(Path(os.environ["E2E_CLIENTS"]) / "node_modules" / "@kilocode" / "cli-linux-x64"
               / "bin" / "kilo")


class Kilo(plugin.Client):
    """A temporary home with Kilo configured for the fake model."""

    name = "kilo"
    folder = ".config/kilo"
    run_timeout = 120
    deadline = time.monotonic() + 285

    def configure(self):
        (self.dir / "kilo.json").write_text(plugin.fake_provider_config(self.model))

    def env(self):
        env = {k: v for k, v in self.home.env().items()
               if not k.startswith(("KILO", "OPENCODE"))}
        off = ["MODELS_FETCH", "DEFAULT_PLUGINS", "AUTOUPDATE", "LSP_DOWNLOAD", "SHARE",
               "SESSION_INGEST", "PRESENCE", "CODEBASE_INDEXING", "EMBEDDED_WEB_UI"]
        env.update({f"KILO_DISABLE_{name}": "1" for name in off})
        # Kilo takes the project folder from $PWD, not from its working directory.
        return dict(env, KILO_TELEMETRY_LEVEL="off", PWD=str(self.home.work))

    def command(self, prompt):
        return [kilo_bin(), "run", prompt]


def check_session(model):
    """The journal check's two exchanges, their requests kept: the first prompt names the
    recorded term, the second none; then a run with the binary gone."""
    kilo = Kilo(model)
    home = kilo.home
    seen = []  # (prompt, process, main requests) of each exchange
    try:
        home.tinylingo("record", TERM, EXPLANATION)
        home.tinylingo("config", "debug", "true")
        driver.journal(kilo, kilo.dir / "plugin" / "tinylingo.js",
                       model_source="the assistant message's modelID (session.messages)",
                       found_in="from the plugin's session.messages", seen=seen)
        if len(seen) < 2:
            raise RuntimeError(f"the journal check ran {len(seen)} exchanges, not 2")
        (hit, hit_proc, hit_mains), (miss, miss_proc, miss_mains) = seen[:2]
        if TERM not in hit or TERM in miss:
            raise RuntimeError("the journal prompts no longer suit the injection checks")

        driver.hook_ran([line for line in plugin.debug_lines(home) if "kilo" in line][:1],
                        hit_proc, kilo)
        driver.explanation(user_parts(hit_mains, hit), hit_proc, kilo,
                           "a text part of the user message")
        driver.instructions(kilo.block(), [data_text(d) for d in hit_mains], hit_proc, kilo)
        driver.nothing_of_ours(user_parts(miss_mains, miss) is not None,
                               [data_text(d) for d in miss_mains], miss_proc, kilo)

        (home.root / ".config" / "tinylingo" / "scripts" / "tinylingo").unlink()
        proc = kilo.run(hit)
        driver.binary_gone(user_parts(model.main_requests(), hit), proc, kilo)
    finally:
        kilo.cleanup()


def seed_user_files(folder):
    """The user had a kilo.json with comments, an empty AGENTS.md and their own plugin."""
    (folder / "plugin").mkdir()
    (folder / "plugin" / "mine.js").write_text("export const Mine = async () => ({})\n")
    (folder / "AGENTS.md").write_bytes(b"")
    (folder / "kilo.json").write_text('{\n  // mine\n  "model": "fake/m",\n}\n')


def main():
    driver.main(os.access(kilo_bin(), os.X_OK), kilo_bin(), check_session,
                lambda: driver.uninstall(Kilo, seed_user_files, install=("--mcp",)))


if __name__ == "__main__":
    main()
