"""End-to-end checks of tinylingo with the real Gemini CLI (npm @google/gemini-cli, pinned in
package.json), talking to a fake Gemini API on 127.0.0.1.

Setup facts (Gemini CLI 0.61.0), learned by running it:
- API: `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT` plus `GEMINI_API_KEY` (any value; sent as
  the `x-goog-api-key` header), and `"security": {"auth": {"selectedType": "gemini-api-key"}}`
  in ~/.gemini/settings.json, or headless Gemini exits 41 "Invalid auth method selected.".
- Calls, per prompt (default model "auto"):
  1. the router: `POST /v1beta/models/gemini-3.5-flash-lite:generateContent` with
     `generationConfig.responseMimeType: application/json` and a `responseJsonSchema`
     (`complexity_reasoning`, `complexity_score`). It must get JSON that fits the schema, or
     Gemini retries it 5 times with backoff (~100 s) before falling back. `fill_schema` below
     fills any such schema, so other utility calls (next-speaker check, loop detection) work too.
  2. the conversation: `POST /v1beta/models/<routed model>:streamGenerateContent?alt=sse`, the
     only request with `tools`; a tool call's result comes back as a second such request with a
     `functionResponse` part. Replies are SSE `data: {GenerateContentResponse}` chunks.
- The conversation request carries: systemInstruction = Gemini's system prompt, with
  ~/.gemini/GEMINI.md verbatim inside `<loaded_context>--- Context from: …/GEMINI.md ---`; and
  one user turn whose text parts are `<session_context>…`, then the prompt, then the hook's
  `additionalContext` wrapped by Gemini in `<hook_context>…</hook_context>`, with `<` `>` in our
  text escaped to `&lt;` `&gt;` (no part at all when the hook prints nothing).
- Folder trust: no hook runs in an untrusted folder; headless, `--skip-trust` (or
  GEMINI_CLI_TRUST_WORKSPACE=true) trusts the working folder for the session.
- Hooks: Gemini runs the command through bash with the event JSON on stdin, and reads stdout,
  or stderr when stdout is empty. Exit 0 or 1: allowed; any other exit with text is a "deny"
  with that text as the reason. So a hook binary that is gone (bash: "No such file or
  directory", exit 127) blocks every prompt: the model is never called, the JSON output's
  `warnings` says "Agent execution blocked: …", and gemini still exits 0. (A command ending in
  `2>/dev/null` or `|| true` lets the prompt through; tried by hand.)
- Shell: headless Gemini (default approval mode) declares no `run_shell_command` tool at all;
  with `--yolo` it does (`run_shell_command`, args `{"command": …}`) and runs it unasked.
- Quiet: `privacy.usageStatisticsEnabled: false`, `telemetry.enabled: false`,
  `general.enableAutoUpdate(Notification): false` in settings.json, so that it does not try to
  reach Google. GEMINI_CLI_NO_RELAUNCH=true spares the second node process it otherwise starts
  for itself (a run then takes ~2-6 s here instead of ~5-9 s). Gemini writes installation_id,
  projects.json, history/ and tmp/ into ~/.gemini when it runs, so the uninstall check never
  runs the client.
- stderr always holds "256-color support not detected" and "Ripgrep is not available" warnings.
- Thread journal (check `journal entry`): `AfterAgent` runs once per prompt, after the answer.
  Its event (0.61.0): session_id, transcript_path, cwd, hook_event_name, timestamp, prompt (as
  typed), prompt_response (the answer's text), stop_hook_active; BeforeAgent's has no model
  either. The transcript (~/.gemini/tmp/<project>/chats/session-….jsonl) does: when AfterAgent
  runs it holds the answer's entry `{"type": "gemini", "content": …, "model": …}`, the routed
  model of the conversation request's path ("gemini-3.8-flash" here; the router call goes to
  gemini-3.5-flash-lite). A hook that fails shows on stderr as "Hook execution for AfterAgent:
  0 succeeded, 1 failed (…)". Hook timeouts are in milliseconds.
"""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import (EXPLANATION, HIT_PROMPT, MCP_ARGS, MCP_EXPLANATION,  # noqa: E402
                    MCP_TERM, MISS_PROMPT, RECORD_COMMAND, RECORDED_TERM, TERM, FakeModel, Home,
                    report, snapshot, snapshot_diff)

CLIENT = "gemini"
MARK = "[TinyLingo]"
GEMINI_TIMEOUT = 60  # one `gemini -p` (about 5-10 s here)
DEADLINE = time.monotonic() + 230  # the runner kills a driver at 300 s

# What the user's settings hold before install in the main flow: no comments, so that the hook
# checks exercise the hook rather than install's parser.
BASE_SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
}

# A settings file as a user may write it: Gemini accepts // and /* */ comments.
COMMENTED_SETTINGS = """\
{
    // Gemini CLI settings, edited by hand
    "security": {
        "auth": {
            "selectedType": "gemini-api-key" /* API key from the environment */
        }
    },
    /*
     * Keep it quiet.
     */
    "privacy": {
        "usageStatisticsEnabled": false
    },
    "ui": {
        "theme": "GitHub" // light theme
    }
}
"""


def fill_schema(schema):
    """A value that fits a Gemini JSON schema (`responseJsonSchema` or `responseSchema`)."""
    if not isinstance(schema, dict):
        return "ok"
    kind = str(schema.get("type", "OBJECT" if "properties" in schema else "STRING")).upper()
    if "enum" in schema:
        values = schema["enum"]
        return "user" if "user" in values else values[0]
    if kind == "OBJECT":
        props = schema.get("properties", {})
        return {k: fill_schema(v) for k, v in props.items()}
    if kind == "ARRAY":
        return []
    if kind in ("INTEGER", "NUMBER"):
        return 10
    if kind == "BOOLEAN":
        return False
    return "ok"


class FakeGemini(FakeModel):
    """The Gemini API (v1beta) as Gemini CLI uses it."""

    @staticmethod
    def response(parts):
        return {
            "candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 2,
                              "totalTokenCount": 12},
            "modelVersion": "gemini-fake",
        }

    def answer(self, handler, path, body):
        try:
            req = json.loads(body) if body else {}
        except ValueError:
            req = {}
        if ":countTokens" in path:
            return self.send_json(handler, {"totalTokens": 10})
        if ":embedContent" in path or ":batchEmbedContents" in path:
            return self.send_json(handler, {"embeddings": [{"values": [0.0] * 8}]})
        if ":generateContent" not in path and ":streamGenerateContent" not in path:
            return self.send_json(handler, {"error": {"code": 404, "message": "not faked",
                                                      "status": "NOT_FOUND"}}, 404)
        config = req.get("generationConfig") or {}
        if not req.get("tools") and config.get("responseMimeType") == "application/json":
            # A utility call (router, next-speaker check, …): JSON that fits its schema.
            schema = config.get("responseJsonSchema") or config.get("responseSchema")
            parts = [{"text": json.dumps(fill_schema(schema))}]
        elif req.get("tools"):
            reply = self.next_reply()
            if isinstance(reply, dict) and "shell" in reply:
                parts = [{"functionCall": {"name": self.shell_tool(req),
                                           "args": {"command": reply["shell"]}}}]
            elif isinstance(reply, dict) and "mcp" in reply:
                # The MCP tool under whatever name Gemini offers it.
                names = tool_names(req)
                name = next((n for n in names if n and "tinylingo" in n and n.endswith(reply["mcp"])),
                            next((n for n in names if n == reply["mcp"]), "missing_tool"))
                parts = [{"functionCall": {"name": name, "args": reply["input"]}}]
            else:
                parts = [{"text": reply}]
        else:
            parts = [{"text": "ok"}]
        resp = self.response(parts)
        if ":streamGenerateContent" in path:
            return self.send_sse(handler, [(None, resp)])
        return self.send_json(handler, resp)

    @staticmethod
    def shell_tool(req):
        names = tool_names(req)
        return next((n for n in names if "shell" in n), "run_shell_command")

    def conversation(self):
        """The conversation requests (method, path, body-as-dict), in order: the ones with tools."""
        out = []
        with self.lock:
            requests = list(self.requests)
        for (_, path, _, body) in requests:
            try:
                req = json.loads(body)
            except ValueError:
                continue
            if "GenerateContent" in path and req.get("tools"):
                out.append(req)
        return out


def tool_names(req):
    return [f.get("name") for t in req.get("tools", []) for f in t.get("functionDeclarations", [])]


def flat(req):
    """A request as text with non-ASCII and escapes decoded (json.dumps of the parsed body)."""
    return json.dumps(req, ensure_ascii=False)


def user_text(req):
    """All text parts of the request's user turns (not the system prompt)."""
    return "\n".join(p.get("text", "") for c in req.get("contents", []) if c.get("role") == "user"
                     for p in c.get("parts", []))


class Gemini:
    """One temporary HOME with Gemini CLI set up against the fake API."""

    def __init__(self, model):
        self.model = model
        self.home = Home()
        self.dir = self.home.root / ".gemini"

    def write_settings(self, obj):
        self.dir.mkdir(exist_ok=True)
        (self.dir / "settings.json").write_text(json.dumps(obj, indent=2) + "\n")

    def run(self, prompt, *flags):
        """`gemini -p PROMPT` headless; returns (CompletedProcess or None, seconds)."""
        # GEMINI_CLI_NO_RELAUNCH: gemini otherwise starts a second node process for itself.
        env = self.home.env(GOOGLE_GEMINI_BASE_URL=self.model.url, GEMINI_API_KEY="fake-key",
                            NO_COLOR=1, GEMINI_CLI_NO_RELAUNCH="true")
        env.pop("CI", None)  # CI=true would change how Gemini treats the terminal
        cmd = [common.client_bin("gemini"), "--skip-trust", "--output-format", "json", *flags,
               "-p", prompt]
        start = time.monotonic()
        timeout = max(5, min(GEMINI_TIMEOUT, DEADLINE - start))
        # Its own process group, so that a timeout ends gemini's children (hooks, shell) too.
        proc = subprocess.Popen(cmd, env=env, cwd=self.home.work, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return None, time.monotonic() - start
        out = subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)
        return out, time.monotonic() - start

    @property
    def tl(self):
        return self.home.root / ".config" / "tinylingo"


def outcome(out, home=None):
    """gemini's exit, warnings and stderr in short, with the temporary home shown as ~."""
    text = outcome_raw(out)
    return text.replace(str(home.root), "~") if home else text


def outcome_raw(out):
    if out is None:
        return "gemini timed out"
    try:
        warnings = json.loads(out.stdout).get("warnings") or []
    except (ValueError, AttributeError):
        warnings = []
    err = " | ".join(line for line in out.stderr.splitlines()
                     if line.strip() and "256-color" not in line and "Ripgrep" not in line)
    text = f"gemini exit {out.returncode}"
    if warnings:
        text += f"; warnings: {' | '.join(warnings)[:160]}"
    return text + (f"; stderr: {err[:120]}" if err else "")


def response_text(out):
    try:
        return json.loads(out.stdout).get("response", "")
    except (ValueError, AttributeError):
        return ""


def hook_context(req):
    """The <hook_context> part Gemini built from the hook's answer, or ""."""
    m = re.search(r"<hook_context>.*?</hook_context>", user_text(req), re.S)
    return m.group(0) if m else ""


def escaped_tags(text):
    """Our own tags that reached the model escaped (`text`: a request body, raw or decoded):
    <system-reminder> above all, and any other tag inside the <hook_context> Gemini built."""
    found = []
    for tag in ("system-reminder", "/system-reminder"):
        for form in (f"&lt;{tag}&gt;", f"\\u0026lt;{tag}\\u0026gt;", f"&amp;lt;{tag}&amp;gt;"):
            if form in text:
                found.append(form)
    for ctx in re.findall(r"<hook_context>.*?</hook_context>", text, re.S):
        found += re.findall(r"&lt;/?[A-Za-z][\w-]*&gt;", ctx)
    return list(dict.fromkeys(found))


def main_flow(model):
    g = Gemini(model)
    try:
        g.write_settings(BASE_SETTINGS)
        g.home.tinylingo("install", "gemini")
        settings = json.loads((g.dir / "settings.json").read_text())
        kept = settings.get("security") == BASE_SETTINGS["security"]
        g.home.tinylingo("config", "debug", "true")
        g.home.tinylingo("record", TERM, EXPLANATION)
        log = g.tl / "debug.log"
        seen = len(log.read_text(errors="replace").splitlines()) if log.exists() else 0

        # 1-3: a prompt that mentions the term.
        model.clear()
        out, secs = g.run(HIT_PROMPT)
        conv = model.conversation()
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        gem_lines = [line for line in lines[seen:] if "gemini" in line]
        if not kept:
            report(CLIENT, "hook ran", "fail", "install dropped the user's security settings: "
                   + json.dumps(settings.get("security")))
        elif gem_lines:
            report(CLIENT, "hook ran", "pass", f"debug.log: {gem_lines[-1]} ({secs:.0f} s)")
        else:
            report(CLIENT, "hook ran", "fail", f"no gemini line in debug.log ({len(lines)} lines); "
                   + outcome(out, g.home))

        hit = [r for r in conv if HIT_PROMPT in user_text(r)]
        plain_tools = tool_names(hit[0]) if hit else None
        if not hit:
            for check in ("explanation reached model", "no escaped tags",
                          "instructions reached model"):
                report(CLIENT, check, "fail", "no conversation request with the prompt; "
                       + outcome(out, g.home))
        else:
            req = hit[0]
            text = flat(req)
            ctx = hook_context(req)
            if EXPLANATION in text and MARK in text:
                report(CLIENT, "explanation reached model", "pass",
                       f"user turn: {ctx[:200] or 'explanation outside <hook_context>'}")
            else:
                report(CLIENT, "explanation reached model", "fail",
                       f"explanation {'in' if EXPLANATION in text else 'not in'} request, "
                       f"{MARK} {'in' if MARK in text else 'not in'}; hook_context: {ctx[:120]!r}")
            esc = escaped_tags(text) + escaped_tags(model_raw(model, HIT_PROMPT))
            if esc:
                report(CLIENT, "no escaped tags", "fail",
                       f"the model sees our tags escaped: {esc[0]} in {ctx[:150]!r}")
            else:
                report(CLIENT, "no escaped tags", "pass", f"hook_context: {ctx[:150]}")
            # The block as install wrote it in GEMINI.md, found verbatim in the request.
            md = (g.dir / "GEMINI.md").read_text() if (g.dir / "GEMINI.md").exists() else ""
            m = re.search(r"<!-- TINYLINGO-START -->.*?<!-- TINYLINGO-END -->", md, re.S)
            block = m.group(0) if m else md.strip()
            system = "\n".join(p.get("text", "") for p in
                               req.get("systemInstruction", {}).get("parts", []))
            where = "system prompt" if block and block in system else "request"
            if not block or "tinylingo record" not in block or "TinyLingo" not in block:
                report(CLIENT, "instructions reached model", "fail",
                       f"~/.gemini/GEMINI.md has no TinyLingo instruction block: {md[:100]!r}")
            elif block in system or block in user_text(req):
                report(CLIENT, "instructions reached model", "pass",
                       f"the GEMINI.md block ({len(block)} chars) verbatim in the {where}, "
                       "inside <loaded_context>")
            else:
                report(CLIENT, "instructions reached model", "fail",
                       "the GEMINI.md instruction block is not in the conversation request")

        # 4: a prompt that mentions nothing.
        model.clear()
        out, secs = g.run(MISS_PROMPT)
        bodies = model.bodies()
        miss = [r for r in model.conversation() if MISS_PROMPT in user_text(r)]
        ours = [b for b in bodies
                if EXPLANATION in decoded(b) or MARK in decoded(b)]
        if not miss:
            report(CLIENT, "no term, nothing of ours", "fail",
                   "no conversation request with the prompt; " + outcome(out, g.home))
        elif ours:
            report(CLIENT, "no term, nothing of ours", "fail",
                   f"{len(ours)} request(s) hold the explanation or {MARK}: "
                   f"{hook_context(miss[0])[:150]!r}")
        else:
            report(CLIENT, "no term, nothing of ours", "pass",
                   f"{len(bodies)} requests, none with ours; hook_context: "
                   f"{hook_context(miss[0])[:80]!r}")

        # 5: the model records a term through the shell tool.
        shell_check(g, model, plain_tools)

        # 6: tinylingo broken three ways; the prompt must still go through.
        broken_checks(g, model)
    finally:
        g.home.cleanup()


def decoded(body):
    try:
        return flat(json.loads(body))
    except ValueError:
        return body


def model_raw(model, needle):
    """The raw bodies (JSON escapes as sent) of the requests that hold `needle`."""
    return "\n".join(b for b in model.bodies() if needle in decoded(b))


def shell_check(g, model, plain_tools):
    # Without --yolo (the run of check 2) the documented limitation: no shell tool at all.
    if plain_tools is None:
        limitation = "tools without --yolo unknown"
    elif any("shell" in (n or "") for n in plain_tools):
        limitation = "even without --yolo Gemini declares a shell tool"
    else:
        limitation = "without --yolo headless Gemini declares no shell tool (documented limitation)"

    model.clear()
    model.replies = [{"shell": RECORD_COMMAND}, "已记录"]
    out, secs = g.run("记住联调环境", "--yolo")
    conv = model.conversation()
    tools = tool_names(conv[0]) if conv else []
    tool = next((n for n in tools if "shell" in (n or "")), None)
    results = [p["functionResponse"] for r in conv for c in r.get("contents", [])
               for p in c.get("parts", []) if "functionResponse" in p]
    glossary = {}
    try:
        glossary = g.home.glossary()
    except ValueError as e:
        glossary = {"<invalid>": str(e)}
    if RECORDED_TERM in glossary:
        report(CLIENT, "record via shell", "pass",
               f"--yolo: {tool} ran the record, glossary has {RECORDED_TERM}; {limitation}")
    elif not tool:
        report(CLIENT, "record via shell", "fail",
               f"no shell tool even with --yolo (tools: {tools}); " + outcome(out, g.home))
    else:
        result = json.dumps(results[-1], ensure_ascii=False)[:160] if results else "no result"
        report(CLIENT, "record via shell", "fail",
               f"{tool} called, glossary lacks {RECORDED_TERM}; tool result: {result}; "
               + outcome(out, g.home))


def broken_checks(g, model):
    glossary = g.tl / "glossary.json"
    index = g.tl / "glossary.index"
    link = g.tl / "scripts" / "tinylingo"
    saved = {p: p.read_bytes() for p in (glossary, index) if p.exists()}

    def restore():
        for p, data in saved.items():
            p.write_bytes(data)
        if not link.is_symlink():
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(common.binary(), link)

    def breakage(name, damage):
        restore()
        damage()
        model.clear()
        model.replies = ["收到"]
        out, secs = g.run(HIT_PROMPT)
        got = [r for r in model.conversation() if HIT_PROMPT in user_text(r)]
        if out is not None and out.returncode == 0 and got:
            note = "with" if EXPLANATION in flat(got[0]) else "without"
            report(CLIENT, name, "pass", f"the model got the prompt ({note} the explanation), "
                   f"gemini exit 0 ({secs:.0f} s), reply {response_text(out)!r}")
        elif out is not None and not got and "Agent execution blocked" in out.stdout:
            # Gemini reads a hook's stderr when stdout is empty, and an exit code other than
            # 0 or 1 with text is a "deny": the prompt is dropped, yet gemini exits 0.
            report(CLIENT, name, "fail", "Gemini blocked the prompt (the model was never "
                   "called) on the hook's failure: " + outcome(out, g.home))
        else:
            report(CLIENT, name, "fail", f"model got the prompt: {bool(got)}; "
                   + outcome(out, g.home))

    breakage("broken: binary gone", lambda: link.unlink())
    breakage("broken: index corrupted",
             lambda: index.write_bytes(b"\x00garbage\xff" * 64))
    breakage("broken: glossary invalid", lambda: glossary.write_text('{"智能抠图": "unterminated'))
    restore()


def uninstall_check():
    """install + uninstall leave ~/.gemini byte for byte as it was (no client run between)."""
    cases = [
        ("commented settings.json", {"settings.json": COMMENTED_SETTINGS}),
        ("settings.json {}", {"settings.json": "{}"}),
        ("empty GEMINI.md", {"GEMINI.md": ""}),
        ("empty ~/.gemini", {}),
    ]
    problems, passed = [], []
    for name, files in cases:
        home = Home()
        try:
            gem = home.root / ".gemini"
            gem.mkdir()
            for fname, text in files.items():
                (gem / fname).write_bytes(text.encode())
            # The whole home but tinylingo's own folder: a ~/.gemini that vanishes shows too.
            skip = (".config/tinylingo",)
            before = snapshot(home.root, skip)
            inst = home.tinylingo("install", "gemini", check=False)
            if inst.returncode != 0:
                err = " ".join(inst.stderr.replace(str(home.root), "~").split())
                problems.append(f"{name}: install exit {inst.returncode} ({err[:70]})")
                continue
            un = home.tinylingo("uninstall", "gemini", check=False)
            after = snapshot(home.root, skip)
            # install creates ~/.config to hold tinylingo's own folder; that is not the user's.
            after[1].discard(".config")
            diff = snapshot_diff(before, after)
            if un.returncode != 0:
                err = " ".join(un.stderr.replace(str(home.root), "~").split())
                problems.append(f"{name}: uninstall exit {un.returncode} ({err[:70]})")
            elif diff:
                problems.append(f"{name}: {diff}")
            else:
                passed.append(name)
        finally:
            home.cleanup()
    if problems:
        report(CLIENT, "uninstall restores files", "fail",
               "; ".join(problems) + (f" (identical: {', '.join(passed)})" if passed else ""))
    else:
        report(CLIENT, "uninstall restores files", "pass",
               "identical bytes: " + ", ".join(passed))


# --- thread journal ---------------------------------------------------------------------------

def asked_model(model):
    """The model Gemini asked for in its conversation request (the one with tools): the
    `models/<name>:streamGenerateContent` of its path (the router's utility call goes to
    another model)."""
    with model.lock:
        requests = list(model.requests)
    for (_, path, _, body) in requests:
        try:
            tools = json.loads(body).get("tools")
        except (ValueError, AttributeError):
            continue
        m = re.search(r"/models/([^/:?]+):", path)
        if tools and m:
            return m.group(1)
    return None


def check_journal(model):
    """`journal entry` (common.check_journal) with the AfterAgent hook in
    ~/.gemini/settings.json. Gemini 0.61.0's BeforeAgent and AfterAgent events name no model
    (AfterAgent: session_id, transcript_path, cwd, timestamp, prompt, prompt_response,
    stop_hook_active), so `unknown` passes; its transcript (JSONL at transcript_path, written
    before AfterAgent runs) does: the answer's entry `{"type": "gemini", …, "model": "<routed
    model>"}`."""
    try:
        g = Gemini(model)
    except Exception as e:  # noqa: BLE001
        report(CLIENT, common.JOURNAL_CHECK, "fail", f"driver error: {type(e).__name__}: {e}")
        return

    def exchange(prompt, reply):
        model.clear()
        model.replies = [reply]
        out, secs = g.run(prompt)
        ok = out is not None and out.returncode == 0
        return common.Exchange(
            asked=asked_model(model),
            answer_problem="" if ok and response_text(out) == reply else (
                f"{outcome(out, g.home)}, reply {response_text(out)!r}"),
            prompt_problem="" if ok and any(
                prompt in user_text(r) for r in model.conversation()) else outcome(out, g.home),
            note=outcome(out, g.home))

    try:
        g.write_settings(BASE_SETTINGS)
        report(CLIENT, common.JOURNAL_CHECK, *common.check_journal(
            "gemini", g.home, exchange, model_source="Gemini's transcript",
            found_in="matches the request",
            unknown_ok="no Gemini event names one; its transcript does",
            settings=g.dir / "settings.json", event="AfterAgent", prompt_event="BeforeAgent"))
    except Exception as e:  # noqa: BLE001 - the table must still get the line
        report(CLIENT, common.JOURNAL_CHECK, "fail", f"driver error: {type(e).__name__}: {e}")
    finally:
        g.home.cleanup()


def check_mcp(model):
    """`install --mcp`: Gemini CLI starts `tinylingo mcp` from `mcpServers` in its
    settings.json and offers the tools; the model's call of `record` lands the term."""
    g = Gemini(model)
    try:
        g.write_settings(BASE_SETTINGS)
        # Headless, Gemini offers no MCP tool of a server it does not trust (nor the shell),
        # unless --yolo: --allow-record writes "trust": true into our entry.
        g.home.tinylingo("install", "gemini", "--mcp", "--allow-record")
        model.clear()
        model.replies = [{"mcp": "record", "input": MCP_ARGS}, "已记录"]
        out, secs = g.run(f"记住：{MCP_TERM}的做法")
        conv = model.conversation()
        tools = [n for n in (tool_names(conv[0]) if conv else []) if n and "record" in n]
        glossary = g.home.glossary()
        if glossary.get(MCP_TERM) == MCP_EXPLANATION:
            report(CLIENT, "record via MCP", "pass",
                   f"{tools[0]} offered without --yolo (trusted server) and called; glossary: "
                   f"{MCP_TERM} → {glossary[MCP_TERM]}")
        else:
            report(CLIENT, "record via MCP", "fail",
                   f"record tools offered {tools}; " + outcome(out, g.home))
    finally:
        g.home.cleanup()


def main():
    common.binary()
    gemini = Path(common.client_bin("gemini"))
    if not gemini.exists():
        sys.exit(f"{gemini} missing: run tests/e2e/run to install the clients")
    model = FakeGemini()
    try:
        main_flow(model)
        check_journal(model)
        try:
            check_mcp(model)
        except Exception as e:  # noqa: BLE001 - the table must still get the line
            report(CLIENT, "record via MCP", "fail", f"driver error: {type(e).__name__}: {e}")
    finally:
        model.stop()
    uninstall_check()


if __name__ == "__main__":
    main()
