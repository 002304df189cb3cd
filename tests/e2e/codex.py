"""End-to-end checks of tinylingo with the real Codex CLI (npm `@openai/codex`, pinned in
package.json), talking to a fake OpenAI Responses API server on 127.0.0.1.

Setup facts (Codex CLI 0.169.0, learned from real runs here and from its source):
- `codex exec --skip-git-repo-check PROMPT` runs one turn headless; stdin must be closed (it
  reads "additional input from stdin" when stdin is a pipe). A temporary HOME holds
  `~/.codex/config.toml` with `model_provider = "fake"` and
  `[model_providers.fake] base_url = "<server>/v1", wire_api = "responses", env_key = ...`;
  Codex then POSTs `/v1/responses` with `stream: true` (SSE answer) and nothing else: no models
  list, no auth. `request_max_retries = 0` / `stream_max_retries = 0` make a failure fast.
- The shell tool the model calls is the function `exec_command` with JSON arguments
  `{"cmd": "<shell command>", "login": true|false, "workdir", "tty", "yield_time_ms", ...}`
  (only `cmd` required). The command runs as `bash -lc` by default (login shell), so
  /etc/profile resets PATH: `~/.profile` in the temporary HOME puts `~/.local/bin` first.
  Its result comes back in the next request as an input item
  `{"type": "function_call_output", "call_id": ..., "output": "<text>"}`.
- The instruction block in `~/.codex/AGENTS.md` reaches the model inside a user message
  "# AGENTS.md instructions … <INSTRUCTIONS>" in every request's `input`.
- Hooks are on by default (feature `hooks`; the old name `codex_hooks` is still honoured:
  `codex_hooks = false` under [features] turns them off). `~/.codex/hooks.json` is read. A hook
  runs only once trusted: `codex exec` silently skips an untrusted one, and runs it with
  `--dangerously-bypass-hook-trust`. The hook's additionalContext reaches the model as a
  `developer` message placed after the user's prompt in `input`. `codex exec` prints
  "hook: UserPromptSubmit" and then "… Completed" or "… Failed" (non-zero exit, or a missing
  command) on stderr; a failed hook does not stop the prompt.
- Trust is stored in `~/.codex/config.toml` (written by the TUI's /hooks through the app
  server's `config/batchWrite`, keyPath `hooks.state`):
      [hooks.state."/abs/home/.codex/hooks.json:user_prompt_submit:0:0"]
      trusted_hash = "sha256:<hex>"
  key = "<absolute hooks.json path>:<event label, snake_case>:<matcher group index>:<handler
  index in the group>" (positional: a group inserted before ours changes the key);
  hash = "sha256:" + hex(sha256(compact JSON, object keys sorted recursively, UTF-8 unescaped, of
  {"event_name": "user_prompt_submit", "matcher": <only when set>,
   "hooks": [{"type": "command", "command": CMD, "timeout": <secs, 600 when absent>,
              "async": false, "statusMessage": <only when set>}]})).
  Source: openai/codex codex-rs/hooks/src/engine/discovery.rs (`command_hook_hash`,
  `hook_key`), codex-rs/config/src/fingerprint.rs (`version_for_toml`),
  codex-rs/config/src/hook_config.rs (field names). Verified against 0.169.0's own
  `hooks/list` (app-server: `currentHash`, `trustStatus`) and by the check `trusted hook runs`.
- The model's shell runs in a sandbox (bundled bubblewrap): `exec` defaults to read-only;
  `-s workspace-write` lets it write the workspace and temp folders only, so
  `tinylingo record` fails with "Read-only file system (os error 30)" unless
  `[sandbox_workspace_write] writable_roots` holds `~/.config/tinylingo`. Hooks run outside the
  sandbox.
- Codex refuses to create its PATH helper links under /tmp (a warning, harmless) and warns that
  bubblewrap is not on PATH (it uses its bundled one).
- Even with a custom provider, Codex tries github.com, api.github.com and chatgpt.com
  (plugins, account). HTTP(S)_PROXY/ALL_PROXY point at a closed port on 127.0.0.1 (NO_PROXY
  for 127.0.0.1), so those attempts fail at once and nothing leaves the machine.
- A run takes ~0.5-1 s here. A temporary HOME under /tmp is inside workspace-write's writable
  roots (/tmp, $TMPDIR), so the sandbox checks set `exclude_slash_tmp` and
  `exclude_tmpdir_env_var` to make ~/.config/tinylingo unwritable as in a real home.
- Thread journal (check `journal entry`): Codex runs a `Stop` hook from hooks.json (trust as
  above, bypassed by the flag) and prints "hook: Stop" / "hook: Stop Completed" on stderr. Its
  event (0.169.0): session_id, turn_id, transcript_path, cwd, hook_event_name, model (the
  request's model, "fake-model" here), permission_mode, stop_hook_active,
  last_assistant_message. UserPromptSubmit's event carries `model` and `prompt` as well.
"""

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # leave no __pycache__ in the checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import (EXPLANATION, HIT_PROMPT, MCP_ARGS, MCP_EXPLANATION,  # noqa: E402
                    MCP_TERM, MISS_PROMPT, RECORD_COMMAND, RECORDED_TERM, TERM, FakeModel, Home,
                    report, snapshot, snapshot_diff)

CLIENT = "codex"
RUN_TIMEOUT = 45             # one `codex exec`
DEADLINE = time.monotonic() + 200   # the whole driver; the runner kills it at 300 s
START, END = "<!-- TINYLINGO-START -->", "<!-- TINYLINGO-END -->"


class ResponsesModel(FakeModel):
    """The OpenAI Responses API as Codex uses it: POST …/responses, stream: true, SSE."""

    def __init__(self):
        super().__init__()
        self.counter = 0

    def _id(self, prefix):
        with self.lock:
            self.counter += 1
            return f"{prefix}_{self.counter}"

    def answer(self, handler, path, body):
        if handler.command != "POST" or not path.rstrip("/").endswith("/responses"):
            # Nothing else is used by 0.169.0 with a custom provider; answer quickly anyway.
            self.send_json(handler, {"object": "list", "data": [], "models": []})
            return
        try:
            request = json.loads(body)
        except ValueError:
            request = {}
        items = request.get("input") or []
        last = items[-1] if items else {}
        # The follow-up after a tool call carries its output: close the turn with text.
        if isinstance(last, dict) and last.get("type") == "function_call_output":
            reply = "done"
        else:
            reply = self.next_reply()
        resp_id = self._id("resp")
        events = [("response.created", {"type": "response.created",
                                        "response": {"id": resp_id, "status": "in_progress"}})]
        if isinstance(reply, dict) and "mcp" in reply:
            # The MCP tool under whatever name Codex offers it (found in the request's tools).
            name, namespace = mcp_tool_name(request, reply["mcp"])
            self.offered_tool = name
            item = {"type": "function_call", "id": self._id("fc"), "call_id": self._id("call"),
                    "name": name or "missing_tool", "status": "completed",
                    "arguments": json.dumps(reply["input"], ensure_ascii=False)}
            if namespace:
                item["namespace"] = namespace
        if isinstance(reply, dict) and ("shell" in reply or "mcp" in reply):
            if "shell" in reply:
                item = {"type": "function_call", "id": self._id("fc"),
                        "call_id": self._id("call"), "name": "exec_command",
                        "status": "completed",
                        "arguments": json.dumps({"cmd": reply["shell"], "yield_time_ms": 10000})}
            events += [
                ("response.output_item.added", {"type": "response.output_item.added",
                                                "output_index": 0,
                                                "item": dict(item, arguments="")}),
                ("response.output_item.done", {"type": "response.output_item.done",
                                               "output_index": 0, "item": item}),
            ]
        else:
            msg_id = self._id("msg")
            text = str(reply)
            events += [
                ("response.output_item.added", {
                    "type": "response.output_item.added", "output_index": 0,
                    "item": {"type": "message", "id": msg_id, "role": "assistant",
                             "status": "in_progress", "content": []}}),
                ("response.output_text.delta", {
                    "type": "response.output_text.delta", "item_id": msg_id, "output_index": 0,
                    "content_index": 0, "delta": text}),
                ("response.output_item.done", {
                    "type": "response.output_item.done", "output_index": 0,
                    "item": {"type": "message", "id": msg_id, "role": "assistant",
                             "status": "completed",
                             "content": [{"type": "output_text", "text": text,
                                          "annotations": []}]}}),
            ]
        events.append(("response.completed", {
            "type": "response.completed",
            "response": {"id": resp_id, "status": "completed", "output": [],
                         "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                                   "output_tokens": 2,
                                   "output_tokens_details": {"reasoning_tokens": 0},
                                   "total_tokens": 12}}}))
        self.send_sse(handler, events)

    # Views of what the client sent.
    def turn_requests(self):
        """Decoded bodies of the /responses requests."""
        out = []
        with self.lock:
            reqs = list(self.requests)
        for method, path, _, body in reqs:
            if method == "POST" and path.rstrip("/").endswith("/responses"):
                try:
                    out.append(json.loads(body))
                except ValueError:
                    out.append({})
        return out

    def texts(self):
        """Every request body as text: the string values of its JSON joined by newlines (so
        quotes and CJK are compared unescaped), or the raw body when it is not JSON."""
        out = []
        for body in self.bodies():
            try:
                out.append("\n".join(strings(json.loads(body))))
            except ValueError:
                out.append(body)
        return out

    def function_outputs(self):
        outs = []
        for request in self.turn_requests():
            for item in request.get("input") or []:
                if isinstance(item, dict) and item.get("type") == "function_call_output":
                    output = item.get("output")
                    outs.append(output if isinstance(output, str) else json.dumps(
                        output, ensure_ascii=False))
        return outs


def mcp_tool_name(request, tool):
    """The name (and namespace, if any) under which the request offers tinylingo's MCP `tool`:
    a function whose name holds "tinylingo" and ends in the tool's name, or one named `tool`
    inside a namespace that names tinylingo."""
    def walk(value, namespace=None):
        if isinstance(value, dict):
            name = value.get("name")
            if isinstance(name, str):
                if "tinylingo" in name and name.endswith(tool) and value.get("type") != "namespace":
                    return name, namespace
                if name == tool and namespace and "tinylingo" in namespace:
                    return name, namespace
                if "tinylingo" in name and isinstance(value.get("tools"), list):
                    return walk(value["tools"], name)
            for v in value.values():
                found = walk(v, namespace)
                if found:
                    return found
        elif isinstance(value, list):
            for v in value:
                found = walk(v, namespace)
                if found:
                    return found
        return None
    return walk(request.get("tools") or []) or (None, None)


def strings(value):
    """Every string inside a decoded JSON value, depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


# ---------------------------------------------------------------------------------------------
# Setup and running the client

def write_codex_config(home, model, extra=""):
    codex = home.root / ".codex"
    codex.mkdir(exist_ok=True)
    (codex / "config.toml").write_text(
        'model = "fake-model"\n'
        'model_provider = "fake"\n'
        'approval_policy = "never"\n'
        'check_for_update_on_startup = false\n'
        '\n[analytics]\nenabled = false\n'
        '\n[feedback]\nenabled = false\n'
        '\n[model_providers.fake]\n'
        'name = "fake"\n'
        f'base_url = "{model.url}/v1"\n'
        'wire_api = "responses"\n'
        'env_key = "FAKE_MODEL_KEY"\n'
        'request_max_retries = 0\n'
        'stream_max_retries = 0\n'
        'stream_idle_timeout_ms = 20000\n'
        + extra)


def new_home(model):
    home = Home()
    # The model's shell is a login bash: /etc/profile resets PATH, ~/.profile puts ours back.
    (home.root / ".profile").write_text('export PATH="$HOME/.local/bin:$PATH"\n')
    write_codex_config(home, model)
    return home


def run_codex(home, prompt, *args, bypass_trust=True):
    cmd = [common.client_bin("codex"), "exec", "--skip-git-repo-check", "--color", "never"]
    if bypass_trust:
        cmd.append("--dangerously-bypass-hook-trust")
    cmd += [*args, "--", prompt]
    # Whatever Codex tries to reach beyond 127.0.0.1 goes to a closed local port.
    dead = "http://127.0.0.1:9"
    proxies = {name: dead for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                                       "http_proxy", "https_proxy", "all_proxy")}
    env = home.env(FAKE_MODEL_KEY="fake-key", NO_COLOR="1", NO_PROXY="127.0.0.1,localhost",
                   no_proxy="127.0.0.1,localhost", **proxies)
    budget = min(RUN_TIMEOUT, DEADLINE - time.monotonic())
    if budget < 5:
        return "skipped (driver out of time)", "", ""
    try:
        out = subprocess.run(cmd, env=env, cwd=home.work, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=budget)
        return out.returncode, out.stdout, out.stderr
    except subprocess.TimeoutExpired as e:
        return "timeout", _s(e.stdout), _s(e.stderr)


def _read(path):
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _s(x):
    return x.decode("utf-8", "replace") if isinstance(x, bytes) else (x or "")


def tail(text, n=160):
    text = " ".join((text or "").split())
    return text[-n:]


def hook_statuses(stderr):
    """The hook lines `codex exec` prints on stderr, e.g. "hook: UserPromptSubmit Failed"."""
    return [l.strip() for l in (stderr or "").splitlines() if l.startswith("hook:")]


def debug_lines(home):
    path = home.root / ".config" / "tinylingo" / "debug.log"
    return path.read_text(errors="replace").splitlines() if path.exists() else []


def instruction_block(home):
    text = (home.root / ".codex" / "AGENTS.md").read_text()
    if START not in text or END not in text:
        return None
    return text[text.index(START) + len(START):text.index(END)]


def hook_key_and_hash(hooks_json, command):
    """Codex's trust key and hash for the UserPromptSubmit hook that runs `command` in
    `hooks_json` (see the notes at the top), or (None, None)."""
    data = json.loads(hooks_json.read_text())
    for gi, group in enumerate(data.get("hooks", {}).get("UserPromptSubmit", [])):
        for hi, handler in enumerate(group.get("hooks", [])):
            if handler.get("type") == "command" and handler.get("command") == command:
                timeout = handler.get("timeout")
                hook = {"type": "command", "command": command,
                        "timeout": 600 if timeout is None else max(1, timeout),
                        "async": bool(handler.get("async", False))}
                if handler.get("statusMessage") is not None:
                    hook["statusMessage"] = handler["statusMessage"]
                identity = {"event_name": "user_prompt_submit", "hooks": [hook]}
                if group.get("matcher") is not None:
                    identity["matcher"] = group["matcher"]
                canon = json.dumps(identity, sort_keys=True, separators=(",", ":"),
                                   ensure_ascii=False)
                digest = "sha256:" + hashlib.sha256(canon.encode()).hexdigest()
                return f"{hooks_json}:user_prompt_submit:{gi}:{hi}", digest
    return None, None


# ---------------------------------------------------------------------------------------------
# Checks

REPORTED = set()


def say(check, status, detail=""):
    REPORTED.add(check)
    report(CLIENT, check, status, detail)


def guarded(checks, fn, *args):
    """Run fn; if it raises, every check of `checks` it did not report fails with the error."""
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 — a driver error must still give table lines
        for check in checks:
            if check not in REPORTED:
                say(check, "fail", f"driver error: {type(e).__name__}: {e}")


def hook_lines(home, before):
    """debug.log lines written by `tinylingo hook codex` after the first `before` lines."""
    return [l for l in debug_lines(home)[before:] if "codex" in l.split()]


def check_main(model):
    home = new_home(model)
    try:
        home.tinylingo("install", "codex")
        home.tinylingo("config", "debug", "true")
        home.tinylingo("record", TERM, EXPLANATION)
        guarded(["hook ran", "explanation reached model", "instructions reached model"],
                check_hit, home, model)
        guarded(["no term, nothing of ours"], check_miss, home, model)
        guarded(["trusted hook runs"], check_trusted_hook, home, model)
        guarded(["record blocked: hint", "record via shell"], check_record_via_shell,
                home, model)
        guarded(["broken: binary gone", "broken: index corrupted", "broken: glossary invalid"],
                check_broken, home, model)
    finally:
        home.cleanup()


def check_hit(home, model):
    """1-3: a prompt that mentions the recorded term."""
    model.clear()
    before = len(debug_lines(home))
    rc, out, err = run_codex(home, HIT_PROMPT)
    texts = model.texts()
    if rc != 0 or not texts:
        detail = f"codex exit {rc}, {len(texts)} requests: {tail(err)}"
        for check in ("hook ran", "explanation reached model", "instructions reached model"):
            say(check, "fail", detail)
        return
    ran = hook_lines(home, before)
    say("hook ran", "pass" if ran else "fail",
        tail(ran[-1], 200) if ran else
        f"no codex line in debug.log ({len(debug_lines(home))} lines); Codex showed: "
        f"{'; '.join(hook_statuses(err)) or 'no hook line'}")

    # Where the hook's context landed: an input item of the turn request.
    where = []
    for request in model.turn_requests():
        for item in request.get("input") or []:
            text = "\n".join(strings(item))
            if EXPLANATION in text and "[TinyLingo]" in text:
                where.append(f"{item.get('type')} {item.get('role') or ''}".strip())
    say("explanation reached model", "pass" if where else "fail",
        f"as input item: {where[0]}" if where else
        "no request holds the explanation and [TinyLingo]")

    block = instruction_block(home)
    if block is None:
        say("instructions reached model", "fail",
            "~/.codex/AGENTS.md has no instruction block after install")
        return
    lines = [l.strip() for l in block.splitlines() if l.strip()]
    missing = [l for l in lines if not any(l in t for t in texts)]
    ok = not missing and any("tinylingo record" in t and "TinyLingo" in t for t in texts)
    say("instructions reached model", "pass" if ok else "fail",
        f"all {len(lines)} lines of the block in the request" if ok else
        f"{len(missing)}/{len(lines)} lines missing, e.g. {missing[:1]}")


def check_miss(home, model):
    """4: a prompt that mentions nothing: nothing of tinylingo's may reach the model."""
    model.clear()
    before = len(debug_lines(home))
    rc, out, err = run_codex(home, MISS_PROMPT)
    texts = model.texts()
    got_prompt = any(MISS_PROMPT in t for t in texts)
    ours = [t for t in texts if EXPLANATION in t or "[TinyLingo]" in t]
    ran = bool(hook_lines(home, before))
    if rc != 0 or not got_prompt:
        say("no term, nothing of ours", "fail",
            f"codex exit {rc}, prompt seen: {got_prompt}: {tail(err)}")
    elif ours:
        say("no term, nothing of ours", "fail", "the explanation or [TinyLingo] reached the model")
    elif not ran:
        say("no term, nothing of ours", "skip", "nothing sent, but the hook did not run")
    else:
        say("no term, nothing of ours", "pass", "the hook ran and sent nothing")


def check_trusted_hook(home, model):
    """The hook trusted the way Codex's /hooks records it, run without the bypass flag."""
    hooks_json = home.root / ".codex" / "hooks.json"
    command = f"{home.root}/.config/tinylingo/scripts/tinylingo hook codex"
    key, digest = hook_key_and_hash(hooks_json, command)
    if key is None:
        say("trusted hook runs", "fail", f"no hook running {command} in hooks.json")
        return
    config = home.root / ".codex" / "config.toml"
    original = config.read_text()

    # Untrusted and no bypass: `codex exec` skips the hook without a word.
    model.clear()
    before = len(debug_lines(home))
    run_codex(home, HIT_PROMPT, bypass_trust=False)
    untrusted_ran = bool(hook_lines(home, before))

    # What Codex's /hooks writes (app server config/batchWrite, keyPath hooks.state).
    config.write_text(original + f'\n[hooks.state."{key}"]\ntrusted_hash = "{digest}"\n')
    try:
        model.clear()
        before = len(debug_lines(home))
        rc, out, err = run_codex(home, HIT_PROMPT, bypass_trust=False)
        ran = bool(hook_lines(home, before))
        hit = any(EXPLANATION in t for t in model.texts())
        say("trusted hook runs", "pass" if rc == 0 and ran and hit else "fail",
            f"hooks.state key {key.replace(str(home.root), '~')}, {digest[:20]}…: "
            f"exit {rc}, hook ran: {ran}, explanation sent: {hit}; "
            f"untrusted without the bypass flag: hook ran: {untrusted_ran}")
    finally:
        config.write_text(original)


def check_record_via_shell(home, model):
    """5: the model runs RECORD_COMMAND through Codex's shell tool."""
    # The temporary HOME lives under /tmp, which workspace-write makes writable: take /tmp and
    # $TMPDIR out of the writable roots so that ~/.config/tinylingo is outside them, as in a
    # real home. The workspace (the project folder) stays writable.
    no_tmp = ('\n[sandbox_workspace_write]\n'
              'exclude_slash_tmp = true\n'
              'exclude_tmpdir_env_var = true\n')
    try:
        # (a) workspace-write without writable_roots: the documented limitation.
        write_codex_config(home, model, extra=no_tmp)
        model.clear()
        model.replies[:] = [{"shell": RECORD_COMMAND}]
        rc, out, err = run_codex(home, "记一下联调环境", "-s", "workspace-write")
        outputs = model.function_outputs()
        recorded = RECORDED_TERM in home.glossary()
        if recorded:
            blocked = "workspace-write: the record went through"
            say("record blocked: hint", "skip",
                "the workspace-write sandbox let the record through")
            home.tinylingo("remove", RECORDED_TERM, check=False)
        elif not outputs:
            blocked = f"workspace-write: no tool output came back (exit {rc})"
            say("record blocked: hint", "fail", f"{blocked}: {tail(err)}")
        else:
            text = outputs[-1]
            erofs = "Read-only file system" in text or "os error 30" in text
            hint = "writable_roots" in text
            blocked = (f"workspace-write: record failed{' with EROFS' if erofs else ''}, "
                       f"writable_roots hint {'present' if hint else 'absent'}")
            say("record blocked: hint", "pass" if hint else "fail",
                ("" if hint else "no hint mentioning writable_roots in the tool output: ")
                + tail(text[text.find("Output:"):] if "Output:" in text else text, 250))

        # (b) workspace-write with ~/.config/tinylingo in writable_roots.
        write_codex_config(home, model, extra=(
            no_tmp + f'writable_roots = ["{home.root}/.config/tinylingo"]\n'))
        model.clear()
        model.replies[:] = [{"shell": RECORD_COMMAND}]
        rc, out, err = run_codex(home, "记一下联调环境", "-s", "workspace-write")
        outputs = model.function_outputs()
        glossary = home.glossary()
        ok = rc == 0 and RECORDED_TERM in glossary
        detail = (f"writable_roots: recorded {RECORDED_TERM}" if ok else
                  f"writable_roots: exit {rc}, glossary {list(glossary)}, tool output: "
                  f"{tail(outputs[-1], 120) if outputs else 'none'}")
        say("record via shell", "pass" if ok else "fail", f"{detail}; {blocked}")
    finally:
        write_codex_config(home, model)


def check_broken(home, model):
    """6: tinylingo broken three ways: the prompt must still reach the model, exit 0."""
    tl = home.root / ".config" / "tinylingo"
    link = tl / "scripts" / "tinylingo"
    index = tl / "glossary.index"
    glossary = tl / "glossary.json"

    def attempt(check, client_runs_it):
        model.clear()
        rc, out, err = run_codex(home, HIT_PROMPT)
        texts = model.texts()
        got = any(HIT_PROMPT in t for t in texts)
        explained = any(EXPLANATION in t for t in texts)
        statuses = hook_statuses(err)
        failed = [s for s in statuses if "fail" in s.lower()]
        # A missing command fails in the client; anything else is tinylingo's hook, which must
        # exit 0 on any error.
        if rc == 0 and got and not statuses:
            say(check, "skip", "prompt reached model, but Codex ran no hook")
            return
        ok = rc == 0 and got and (client_runs_it or not failed)
        detail = (f"exit {rc}, prompt reached model: {got}, explanation too: {explained}, "
                  f"Codex showed: {'; '.join(statuses) or 'no hook line'}")
        if failed and not client_runs_it:
            detail += " (the hook must exit 0 on any error)"
        say(check, "pass" if ok else "fail", detail + ("" if rc == 0 else f": {tail(err)}"))

    # The binary the hook runs is gone.
    if link.exists() or link.is_symlink():
        link.unlink()
    attempt("broken: binary gone", client_runs_it=True)
    home.tinylingo("install", "codex")

    # Garbage over the index.
    saved = index.read_bytes() if index.exists() else None
    index.write_bytes(b"\x00garbage\xff" * 64)
    attempt("broken: index corrupted", client_runs_it=False)
    if saved is not None:
        index.write_bytes(saved)

    # glossary.json no longer JSON (a hand edit gone wrong).
    glossary.write_text('{"智能抠图": "unterminated\n')
    attempt("broken: glossary invalid", client_runs_it=False)


def check_uninstall():
    """7: install + uninstall leave ~/.codex byte for byte as it was (no client run between)."""
    user_hook = {"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": "echo mine", "timeout": 5}]}]}}
    cases = {
        "version+empty hooks": {"hooks.json": '{"version":1,"hooks":{}}',
                                "AGENTS.md": "", "config.toml": 'model = "gpt-5"\n'},
        "{} hooks.json": {"hooks.json": "{}", "AGENTS.md": "",
                          "config.toml": 'model = "gpt-5"\n'},
        "4-space with user hook": {"hooks.json": json.dumps(user_hook, indent=4) + "\n",
                                   "AGENTS.md": "# mine\n", "config.toml": ""},
        "empty ~/.codex": {},
    }
    problems = []
    for name, files in cases.items():
        home = Home()
        try:
            codex = home.root / ".codex"
            codex.mkdir()
            for rel, text in files.items():
                (codex / rel).write_text(text)
            skip = (".config", ".local", "project")
            before = snapshot(home.root, skip=skip)
            steps = []
            for verb in ("install", "uninstall"):
                out = home.tinylingo(verb, "codex", check=False)
                if out.returncode != 0:
                    steps.append(f"{verb} exit {out.returncode}: {tail(out.stderr, 80)}")
                if verb == "install" and "hook codex" not in _read(codex / "hooks.json"):
                    steps.append("install registered no hook in hooks.json")
            diff = snapshot_diff(before, snapshot(home.root, skip=skip))
            if diff or steps:
                problems.append(f"[{name}] " + "; ".join(steps + ([diff] if diff else [])))
        finally:
            home.cleanup()
    say("uninstall restores files", "fail" if problems else "pass",
        " ".join(problems) if problems else f"{len(cases)} cases identical")


MAIN_CHECKS = ["hook ran", "explanation reached model", "instructions reached model",
               "no term, nothing of ours", "trusted hook runs", "record blocked: hint",
               "record via shell", "broken: binary gone", "broken: index corrupted",
               "broken: glossary invalid"]
JOURNAL_CHECKS = ["journal entry"]
MCP_CHECKS = ["record via MCP"]


def check_mcp(model):
    """`install --mcp`: Codex starts `tinylingo mcp` from [mcp_servers.tinylingo] in
    config.toml, outside the model's sandbox, so the `record` tool lands the term where the
    shell's `tinylingo record` is blocked (workspace-write, no writable_roots)."""
    home = new_home(model)
    try:
        no_tmp = ('\n[sandbox_workspace_write]\n'
                  'exclude_slash_tmp = true\n'
                  'exclude_tmpdir_env_var = true\n')
        write_codex_config(home, model, extra=no_tmp)
        # --allow-record approves the record tool: `codex exec` refuses an MCP call that needs
        # approval ("MCP tool call requires approval, but approval policy is never").
        home.tinylingo("install", "codex", "--mcp", "--allow-record")
        model.clear()
        model.offered_tool = None
        model.replies[:] = [{"mcp": "record", "input": MCP_ARGS}]
        rc, out, err = run_codex(home, f"记住：{MCP_TERM}的做法", "-s", "workspace-write")
        outputs = model.function_outputs()
        glossary = home.glossary()
        if glossary.get(MCP_TERM) == MCP_EXPLANATION:
            say("record via MCP", "pass",
                f"tool {model.offered_tool!r} called under workspace-write (the shell's record "
                f"is blocked there); glossary: {MCP_TERM} → {glossary[MCP_TERM]}")
        else:
            tools = [t.get("name") for r in model.turn_requests() for t in r.get("tools") or []
                     if isinstance(t, dict)]
            say("record via MCP", "fail",
                f"exit {rc}; offered {model.offered_tool!r}; tools {tools[:12]}; output "
                f"{tail(outputs[-1], 160) if outputs else 'none'}; stderr {tail(err)}")
    finally:
        home.cleanup()


# --- thread journal ---------------------------------------------------------------------------

def check_journal(model):
    """`journal entry` (common.check_journal) with the Stop hook in ~/.codex/hooks.json. Codex's
    Stop event carries `model` (0.169.0: the config's model, as sent in the request) and
    `last_assistant_message`; hook trust is bypassed with `--dangerously-bypass-hook-trust`, as
    in the other checks."""
    home = new_home(model)

    def exchange(prompt, reply):
        model.clear()
        model.replies[:] = [reply]
        rc, out, err = run_codex(home, prompt)
        requests = model.turn_requests()
        hooks = "; ".join(hook_statuses(err))
        return common.Exchange(
            asked=requests[0].get("model") if requests else None,
            answer_problem="" if rc == 0 and reply in out else (
                f"codex exit {rc}, {len(requests)} requests, hooks: {hooks or 'none'}: "
                f"{tail(err, 100)}"),
            prompt_problem="" if rc == 0 and any(prompt in t for t in model.texts()) else (
                f"codex exit {rc}: {tail(err, 100)}"),
            note=f"Codex showed: {hooks or 'no hook line'}")

    try:
        say(common.JOURNAL_CHECK, *common.check_journal(
            "codex", home, exchange, model_source="the Stop event's `model`",
            found_in="from the Stop event", settings=home.root / ".codex" / "hooks.json",
            event="Stop", prompt_event="UserPromptSubmit"))
    finally:
        home.cleanup()


def main():
    common.binary()
    started = time.monotonic()
    if not os.access(common.client_bin("codex"), os.X_OK):
        for check in MAIN_CHECKS + JOURNAL_CHECKS + MCP_CHECKS:
            say(check, "skip", f"no client at {common.client_bin('codex')}")
    else:
        model = ResponsesModel()
        try:
            guarded(MAIN_CHECKS, check_main, model)
            guarded(JOURNAL_CHECKS, check_journal, model)
            guarded(MCP_CHECKS, check_mcp, model)
        finally:
            model.stop()
    guarded(["uninstall restores files"], check_uninstall)
    print(f"codex driver: {time.monotonic() - started:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
