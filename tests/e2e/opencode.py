"""End-to-end checks of tinylingo with the real OpenCode client (npm `opencode-ai`), which talks
to a fake OpenAI-compatible chat-completions server on 127.0.0.1.

Setup facts (OpenCode 1.18.33, found by running it and reading its bundled source):
- The custom provider's package `@ai-sdk/openai-compatible` is bundled in the binary: nothing is
  downloaded for it. The provider is declared in `~/.config/opencode/opencode.json`
  (`provider.fake` with `npm`, `options.baseURL`/`apiKey`, `models.m`; `"model": "fake/m"`);
  `"permission": {"bash": "allow"}` lets headless `opencode run` execute the model's shell call.
- models.dev: `OPENCODE_DISABLE_MODELS_FETCH=1` (a custom provider needs no catalogue). Also
  off: `OPENCODE_DISABLE_AUTOUPDATE`, `OPENCODE_DISABLE_LSP_DOWNLOAD`, `OPENCODE_DISABLE_SHARE`,
  `OPENCODE_DISABLE_DEFAULT_PLUGINS` (built-in auth plugins; file plugins in `plugins/` still
  load). Not `OPENCODE_PURE`: it turns off external plugins, tinylingo's too. Other `OPENCODE_*`
  variables of the caller are dropped.
- What OpenCode does fetch: for every config folder (`~/.config/opencode`) it writes
  `package.json` + `.gitignore` and installs `@opencode-ai/plugin@<its own version>` there with
  npm's Arborist (npm's config applies, `npm_config_*` variables included). When the folder
  holds a plugin — tinylingo's `plugins/tinylingo.js` — OpenCode *waits* for that install
  before it loads plugins: 15-25 s on this busy machine, every fresh home. It skips the install
  when `node_modules` exists and `package-lock.json` lists every dependency of `package.json`.
  So the driver installs that package once with npm into
  `$E2E_CLIENTS/opencode-config-deps-<version>/` (npm cache `$E2E_CLIENTS/opencode-npm-cache`,
  prefer-offline; the only non-127.0.0.1 traffic, on the first run only) and gives each home
  what OpenCode's own first start leaves: a copy of package.json/package-lock.json and a
  `node_modules` symbolic link to the shared folder. OpenCode's install then has nothing to do;
  should it run anyway it uses the same cache, prefer-offline. Checked: with the folder seeded,
  the driver passes under `unshare -n` (loopback only).
- OpenCode takes the project folder from `$PWD`, not from its working directory: PWD is set to
  the home's project folder (else it would work in the caller's checkout).
- `opencode run` reads piped stdin into the message, so stdin is /dev/null. A model answering
  HTTP 500 makes it retry without end: every run has a timeout and a killed process group.
- Requests per prompt: a title-generation request (system "You are a title generator", no
  `tools`; it carries the user message too, synthetic part included) and the main conversation
  request (`tools`: bash, edit, glob, grep, read, skill, task, todowrite, webfetch, write). The
  title request gets a fixed title and never takes a scripted reply.
- The plugin's part arrives as a second text part of the user message:
  `[{"type":"text","text":PROMPT},{"type":"text","text":"<system-reminder>\n[TinyLingo]\n- TERM:
  EXPLANATION\n</system-reminder>"}]`. AGENTS.md reaches the system message whole, markers
  included, after "Instructions from: ~/.config/opencode/AGENTS.md".
- The shell tool is `bash`, parameters `command` (required), `timeout`, `workdir` (no
  `description` in this version; the fake model adds one only when the schema has it); its
  output comes back as a `role: tool` message.
- `opencode run` joins its message arguments with spaces and wraps one that holds an ASCII space
  in double quotes (`"a b"` reaches the model, and the plugins, quotes included), so a prompt
  that must arrive verbatim has no space (a newline is fine).
- Thread journal (check `journal entry`): tinylingo's plugin acts on the `session.idle` event.
  `opencode run` exits within ~50 ms of that event without waiting for plugin handlers (tried
  with a stand-in plugin): an `await client.session.messages(...)` (~10 ms) still completes and
  a spawnSync after it holds the exit back, but a timer or an async child started later never
  runs. The messages carry `info.modelID` "m" and `providerID` "fake"; the requests ask for
  model "m". (Should the race ever lose, `opencode serve` + `opencode run --attach URL` keeps
  the process alive and lets the handler finish: tried, works.)
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
import plugin  # noqa: E402
from common import (EXPLANATION, HIT_PROMPT, MCP_ARGS, MCP_EXPLANATION,  # noqa: E402
                    MCP_TERM, MISS_PROMPT, RECORD_COMMAND, RECORDED_TERM, TERM, message_text)
from plugin import data_text, debug_lines, request_text, shell_params  # noqa: E402

driver = plugin.Driver("opencode", [
    "hook ran", "explanation reached model", "instructions reached model",
    "no term, nothing of ours", "record via shell", "broken: binary gone",
    "broken: index corrupted", "broken: glossary invalid", "journal entry", "record via MCP",
    "uninstall restores files"])
report = driver.report


def clients_dir():
    return Path(os.environ["E2E_CLIENTS"])


def opencode_version():
    pkg = clients_dir() / "node_modules" / "opencode-ai" / "package.json"
    return json.loads(pkg.read_text())["version"]


def npm_env(env):
    """npm settings for every install, OpenCode's own included: the shared cache, cache first."""
    env.update(npm_config_cache=str(clients_dir() / "opencode-npm-cache"),
               npm_config_prefer_offline="true", npm_config_audit="false",
               npm_config_fund="false", npm_config_update_notifier="false")
    return env


def seed_config_deps():
    """The folder OpenCode's config dependencies are copied from (`@opencode-ai/plugin` at the
    client's version, what OpenCode installs into every config folder), filled once with npm
    and kept under E2E_CLIENTS; None when it cannot be made (OpenCode then installs them
    itself, slowly)."""
    version = opencode_version()
    deps = clients_dir() / f"opencode-config-deps-{version}"
    if (deps / "node_modules" / "@opencode-ai" / "plugin").is_dir():
        return deps
    tmp = clients_dir() / f".opencode-config-deps-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "package.json").write_text("{}\n")
    try:
        out = subprocess.run(
            ["npm", "install", "--save-exact", "--ignore-scripts", "--no-audit", "--no-fund",
             "--loglevel=error", f"@opencode-ai/plugin@{version}"],
            cwd=tmp, env=npm_env(dict(os.environ)), capture_output=True, text=True, timeout=240)
        if out.returncode != 0:
            print(f"opencode: seeding config deps failed: {out.stderr[-300:]}", file=sys.stderr)
            return None
        os.rename(tmp, deps)
    except (OSError, subprocess.TimeoutExpired) as e:
        if (deps / "node_modules").is_dir():  # another run seeded it meanwhile
            return deps
        print(f"opencode: seeding config deps failed: {e}", file=sys.stderr)
        return None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return deps


class OpenCode(plugin.Client):
    """A temporary home with OpenCode configured for the fake model."""

    name = "opencode"
    folder = ".config/opencode"
    deadline = time.monotonic() + 240

    def __init__(self, model, deps=None):
        self.deps = deps
        super().__init__(model)

    def configure(self):
        if self.deps:
            # What OpenCode's first start leaves in a config folder: with these its
            # dependency install finds nothing to do.
            for name in ("package.json", "package-lock.json"):
                shutil.copyfile(self.deps / name, self.dir / name)
            os.symlink(self.deps / "node_modules", self.dir / "node_modules")
            (self.dir / ".gitignore").write_text(
                "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore")
        (self.dir / "opencode.json").write_text(plugin.fake_provider_config(
            self.model, **{"$schema": "https://opencode.ai/config.json"}))

    def env(self):
        env = {k: v for k, v in self.home.env().items() if not k.startswith("OPENCODE")}
        return npm_env(dict(
            env,
            OPENCODE_DISABLE_MODELS_FETCH="1",
            OPENCODE_DISABLE_AUTOUPDATE="1",
            OPENCODE_DISABLE_LSP_DOWNLOAD="1",
            OPENCODE_DISABLE_DEFAULT_PLUGINS="1",
            OPENCODE_DISABLE_SHARE="1",
            # OpenCode takes the project folder from $PWD, not from its working directory.
            PWD=str(self.home.work),
        ))

    def command(self, prompt):
        return [common.client_bin("opencode"), "run", prompt]


def prompt_reached(oc, proc, prompt):
    """The prompt went through: opencode exited 0 and the main request holds the prompt."""
    mains = oc.model.main_requests()
    if proc.returncode != 0:
        return False, oc.outcome(proc)
    if not any(prompt in data_text(d) for d in mains):
        return False, f"no main request held the prompt ({len(oc.model.requests)} requests)"
    return True, ""


def added_parts(model, prompt):
    """The text parts the user message carrying `prompt` has besides the prompt itself, in the
    main request."""
    parts = plugin.user_parts(model.main_requests(), prompt) or []
    return [t for t in parts if t.strip() != prompt]


def check_session(model, deps):
    oc = OpenCode(model, deps)
    home = oc.home
    try:
        home.tinylingo("install", "opencode")
        block = oc.block()

        # 1-3: a prompt with a recorded term.
        home.tinylingo("record", TERM, EXPLANATION)
        home.tinylingo("config", "debug", "true")
        before = len(debug_lines(home))
        proc = oc.run(HIT_PROMPT)
        new = debug_lines(home)[before:]
        mains = model.main_requests()
        hit_main = [data_text(d) for d in mains if HIT_PROMPT in data_text(d)]

        driver.hook_ran([line for line in new if "opencode" in line][:1], proc, oc)
        driver.explanation(hit_main or None, proc, oc, "the main request")
        driver.instructions(block, hit_main, proc, oc)
        home.tinylingo("config", "debug", "false")

        # 4: a prompt with no term.
        proc = oc.run(MISS_PROMPT)
        texts = [request_text(b) for b in model.bodies()]
        driver.nothing_of_ours(prompt_reached(oc, proc, MISS_PROMPT)[0], texts, proc, oc)

        # 5: the model records a term through the shell tool.
        model.replies = [{"shell": RECORD_COMMAND}, "Recorded."]
        proc = oc.run("把联调环境记下来")
        model.replies = []
        mains = model.main_requests()
        first = mains[0] if mains else {}
        tool_results = [message_text(m) for d in mains for m in d.get("messages", [])
                        if m.get("role") == "tool"]
        glossary = home.glossary()
        if not shell_params(first):
            report("record via shell", "fail", f"no bash tool offered; {oc.outcome(proc)}")
        elif RECORDED_TERM in glossary:
            report("record via shell", "pass", f"{RECORDED_TERM}: {glossary[RECORDED_TERM]}")
        else:
            report("record via shell", "fail", f"{RECORDED_TERM} not in the glossary; tool "
                   f"result: {tool_results[:1]}; {oc.outcome(proc)}")

        # 6: tinylingo broken three ways; the prompt must still go through.
        tl = home.root / ".config" / "tinylingo"
        link = tl / "scripts" / "tinylingo"
        breaks = [
            ("broken: binary gone", lambda: link.unlink()),
            ("broken: index corrupted",
             lambda: (tl / "glossary.index").write_bytes(b"\x00garbage\xff" * 64)),
            ("broken: glossary invalid",
             lambda: (tl / "glossary.json").write_text('{"智能抠图": "unterminated')),
        ]
        for name, breaker in breaks:
            saved = {p: p.read_bytes() for p in (tl / "glossary.json", tl / "glossary.index")
                     if p.exists()}
            try:
                breaker()
            except OSError as e:
                report(name, "fail", f"could not break tinylingo: {e}")
                continue
            proc = oc.run(HIT_PROMPT)
            ok, why = prompt_reached(oc, proc, HIT_PROMPT)
            added = added_parts(model, HIT_PROMPT)
            stray = [t for t in added if "[TinyLingo]" not in t]
            if not ok:
                report(name, "fail", why)
            elif stray:
                report(name, "fail", f"the message gained a part that is no glossary block: "
                       f"{stray[0][:150]!r}")
            else:
                report(name, "pass", "explanation still injected" if added else "")
            for p, data in saved.items():
                p.write_bytes(data)
            if not os.path.lexists(link):
                home.tinylingo("install", "opencode")
    finally:
        oc.cleanup()


def seed_user_files(config):
    """The user already had a settings file, an empty instruction file and an empty plugins
    folder."""
    (config / "plugins").mkdir()
    (config / "AGENTS.md").write_bytes(b"")
    (config / "opencode.json").write_text('{\n  "model": "fake/m"\n}\n')


# --- thread journal ---------------------------------------------------------------------------

def check_journal(model, deps):
    """`journal entry` (common.check_journal) with tinylingo's plugin: after `thread off` it
    writes no more but still adds the glossary part (plugins/tinylingo.js stays). OpenCode has no
    after-response hook: the plugin acts on the `session.idle` event, where
    `client.session.messages` gives the assistant message with `modelID` ("m") and `providerID`
    ("fake"); the request asks for model "m"."""
    oc = OpenCode(model, deps)
    try:
        driver.journal(oc, oc.dir / "plugins" / "tinylingo.js",
                       model_source="the assistant message's modelID (session.messages)",
                       found_in="from the plugin's session.messages")
    finally:
        oc.cleanup()


def check_mcp(model, deps):
    """`install --mcp`: OpenCode starts `tinylingo mcp` from `mcp.tinylingo` in opencode.json
    (`{"type": "local", "command": [...]}`) and offers its tools; the model's call of `record`
    lands the term."""
    oc = OpenCode(model, deps)
    try:
        oc.home.tinylingo("install", "opencode", "--mcp")
        model.replies = [{"mcp": "record", "input": MCP_ARGS}, "Recorded."]
        proc = oc.run(f"记住：{MCP_TERM}的做法")
        model.replies = []
        mains = model.main_requests()
        names = [t.get("function", {}).get("name") for d in mains[:1] for t in d.get("tools") or []]
        offered = [n for n in names if n and "tinylingo" in n]
        glossary = oc.home.glossary()
        if glossary.get(MCP_TERM) == MCP_EXPLANATION:
            report("record via MCP", "pass", f"offered {offered}, record called; glossary: "
                   f"{MCP_TERM} → {glossary[MCP_TERM]}")
        else:
            report("record via MCP", "fail", f"offered {offered}; {oc.outcome(proc)}")
    finally:
        oc.cleanup()


def main():
    exe = common.client_bin("opencode")

    def with_model(model):
        deps = seed_config_deps()
        check_session(model, deps)
        check_journal(model, deps)
        check_mcp(model, deps)

    driver.main(os.access(exe, os.X_OK), exe, with_model,
                lambda: driver.uninstall(OpenCode, seed_user_files))


if __name__ == "__main__":
    main()
