"""End-to-end checks of tinylingo with the real Claude Code client (npm @anthropic-ai/claude-code,
pinned in package.json), talking to a fake Anthropic Messages API on 127.0.0.1.

    TINYLINGO_BIN=… E2E_CLIENTS=~/.cache/tinylingo-e2e python3 tests/e2e/claude.py

Setup facts (Claude Code 2.1.197, learned from real runs):
- `node_modules/.bin/claude` is a native executable (claude.exe), no node needed; `--version`
  prints "2.1.197 (Claude Code)". A headless run (`claude -p PROMPT --output-format json`) takes
  well under a second against the fake server and prints one JSON object: `result` (the
  model's final text), `is_error`, `num_turns`, `permission_denials` (tool calls refused).
- Offline: `ANTHROPIC_BASE_URL=http://127.0.0.1:PORT`, `ANTHROPIC_API_KEY=<anything>` (no login,
  no onboarding in `-p` mode), `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`, `DISABLE_TELEMETRY=1`,
  `DISABLE_AUTOUPDATER=1`. With these, a text-only turn makes exactly one request:
  `POST /v1/messages?beta=true`, `"stream": true`, 24 tools, model "claude-opus-4-8". No
  count_tokens, quota or title requests were seen, but the server answers any of them (and
  HEAD/GET probes) at once; the driver tells the main conversation request by its `Bash` tool.
- Where things land in the request:
  * `~/.claude/CLAUDE.md` is inlined into the FIRST user message, inside a `<system-reminder>`
    ("# claudeMd … Contents of …/.claude/CLAUDE.md (user's private global instructions …)"),
    not in the `system` field. HTML comments are stripped, so the `<!-- TINYLINGO-START/END -->`
    markers never reach the model; the "## TinyLingo 术语与行为记忆" heading does.
  * A UserPromptSubmit hook's `additionalContext` arrives as a separate `{"role": "system"}`
    entry of `messages` (after the user message), as
    "UserPromptSubmit hook additional context: <system-reminder>\n[TinyLingo]\n- TERM: …".
  * The `-p` prompt is its own text block of that first user message.
- Besides that POST the client sends `HEAD /` (a Bun connection probe); it goes on either way.
- Hooks from `~/.claude/settings.json` run in `-p` mode without any folder-trust step. How a
  UserPromptSubmit hook's outcome shows (tried with stand-in hooks):
  * exit 0 + JSON `additionalContext` → the text above; exit 0 + plain stdout → a system entry
    "UserPromptSubmit hook success: <stdout>" (so a hook that prints an error on stdout
    feeds it to the model: the broken-case checks look for that);
  * exit 1 (or a missing command, e.g. the binary link gone) → silently ignored in `-p`: exit
    0, nothing on stderr, nothing in the request;
  * exit 2 → the prompt is blocked: no model request, exit 0, `result` = "UserPromptSubmit
    operation blocked by hook: …".
- Permissions: in the default mode the model's `Bash` call `tinylingo record …` is refused
  headless (tool_result "This command requires approval", listed in `permission_denials`).
  `--allowedTools "Bash(tinylingo record:*)"` on the command line lets it through without
  touching the user's settings (an allow rule in settings.json works too). As root,
  `--dangerously-skip-permissions` is refused unless `IS_SANDBOX=1`; not needed here.
  tinylingo's install does not (yet) add such an allow rule: a real user gets asked once.
- The client writes its own files under HOME (`~/.claude.json`, `~/.claude/projects/…`,
  `~/.claude/backups/…`, `~/.claude/sessions`) but leaves `settings.json` and `CLAUDE.md`
  alone, so the uninstall check runs no client, except in one case that compares only the
  files the user had before.
- Thread journal (check `journal entry`): `claude -p` runs the `Stop` hook and waits for it
  before exiting. Its event (2.1.197) holds session_id, transcript_path, cwd, prompt_id,
  permission_mode, effort, hook_event_name, stop_hook_active, last_assistant_message (the
  answer's text), background_tasks, session_crons: no model and no prompt (the prompt is in
  UserPromptSubmit's event, same session_id). The transcript (JSONL at transcript_path) gets
  the answer's `assistant` entry, with `message.model` (what the server's message_start said,
  here the requested model "claude-opus-4-8"), only after Claude Code has started the Stop
  hook: a hook polling for it found it 5-50 ms after its start, and in a new session the file
  itself does not exist yet when the hook starts (tried with stand-in hooks).
"""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import (EXPLANATION, HIT_PROMPT, MCP_ARGS, MCP_EXPLANATION,  # noqa: E402
                    MCP_TERM, MISS_PROMPT, RECORD_COMMAND, RECORDED_TERM, TERM, FakeModel, Home,
                    snapshot, snapshot_diff)

CLIENT = "claude"
LABEL = "[TinyLingo]"
RUN_TIMEOUT = 60  # seconds per client run, at most
BUDGET = 180  # seconds for all client runs together; later runs get what is left (at least 5)
DEADLINE = time.monotonic() + BUDGET
ALLOW_RECORD = "Bash(tinylingo record:*)"

SESSION_CHECKS = ["hook ran", "explanation reached model", "instructions reached model",
                  "no term, nothing of ours", "record via shell", "broken: binary gone",
                  "broken: index corrupted", "broken: glossary invalid"]
UNINSTALL_CHECKS = ["uninstall restores files"]
JOURNAL_CHECKS = ["journal entry"]
MCP_CHECKS = ["record via MCP"]
# Claude Code's name for the MCP server's tool (mcp__<server>__<tool>).
MCP_TOOL = "mcp__tinylingo__record"
REPORTED = set()


def report(client, check, status, detail=""):
    REPORTED.add(check)
    common.report(client, check, status, detail)


def guarded(phase, checks, *args):
    """Run a phase; if it raises, every check it had not reported yet fails with the error."""
    try:
        phase(*args)
    except Exception as e:  # noqa: BLE001 - the table must still get a line per check
        for check in checks:
            if check not in REPORTED:
                report(CLIENT, check, "fail", f"driver error: {type(e).__name__}: {e}")


class AnthropicModel(FakeModel):
    """The Anthropic Messages API, enough for Claude Code: streamed and plain /v1/messages,
    count_tokens, and a quick answer to anything else."""

    def __init__(self):
        super().__init__()
        model = self

        def do_head(handler):
            with model.lock:
                model.requests.append(("HEAD", handler.path, dict(handler.headers), ""))
            handler.send_response(200)
            handler.send_header("Content-Length", "0")
            handler.end_headers()

        def do_other(handler):  # PUT, DELETE, …: read the body, answer {}
            handler._handle(handler.command)

        handler_class = self.server.RequestHandlerClass
        handler_class.do_HEAD = do_head
        for verb in ("PUT", "PATCH", "DELETE", "OPTIONS"):
            setattr(handler_class, f"do_{verb}", do_other)

    @staticmethod
    def is_main(body):
        """The main conversation request: the one that offers the model the Bash tool (title
        generation, quota checks and the like carry no tools)."""
        try:
            req = json.loads(body)
        except ValueError:
            return False
        return isinstance(req, dict) and any(
            isinstance(t, dict) and t.get("name") == "Bash" for t in req.get("tools") or [])

    def main_bodies(self):
        return [b for (m, p, _, b) in list(self.requests)
                if m == "POST" and p.startswith("/v1/messages") and self.is_main(b)]

    def answer(self, handler, path, body):
        route = path.split("?", 1)[0]
        if handler.command != "POST" or not route.startswith("/v1/messages"):
            if route == "/v1/models":
                self.send_json(handler, {"data": [], "has_more": False})
            else:
                self.send_json(handler, {})
            return
        try:
            req = json.loads(body) if body else {}
        except ValueError:
            req = {}
        if route.endswith("/count_tokens"):
            self.send_json(handler, {"input_tokens": max(1, len(body) // 4)})
            return
        # Side requests get "ok" without using up the script meant for the conversation.
        reply = self.next_reply() if self.is_main(body) else "ok"
        model_name = req.get("model") or "claude-fake"
        message = {"id": f"msg_fake{len(self.requests)}", "type": "message", "role": "assistant",
                   "model": model_name, "content": [], "stop_reason": None,
                   "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}
        if isinstance(reply, dict):
            tool_id = f"toolu_fake{len(self.requests)}"
            if "tool" in reply:  # {"tool": name, "input": {...}}: any tool, an MCP one
                name, tool_input = reply["tool"], reply["input"]
            else:
                name = "Bash"
                tool_input = {"command": reply["shell"], "description": "Record a term"}
            block = {"type": "tool_use", "id": tool_id, "name": name, "input": {}}
            delta = {"type": "input_json_delta",
                     "partial_json": json.dumps(tool_input, ensure_ascii=False)}
            full = dict(block, input=tool_input)
            stop = "tool_use"
        else:
            block = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": reply}
            full = {"type": "text", "text": reply}
            stop = "end_turn"
        if not req.get("stream"):
            self.send_json(handler, dict(message, content=[full], stop_reason=stop))
            return
        self.send_sse(handler, [
            ("message_start", {"type": "message_start", "message": message}),
            ("content_block_start", {"type": "content_block_start", "index": 0,
                                     "content_block": block}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta",
                               "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 1}}),
            ("message_stop", {"type": "message_stop"}),
        ])


def client_env(home, model):
    env = home.env()
    # Nothing from the calling session (it may itself be a Claude Code) leaks in.
    for key in list(env):
        if key.startswith(("ANTHROPIC_", "CLAUDE")) or key in ("IS_SANDBOX", "CLAUDECODE"):
            del env[key]
    env.update({
        "ANTHROPIC_BASE_URL": model.url,
        "ANTHROPIC_API_KEY": "sk-ant-e2e-fake",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1",
    })
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
        env.pop(key, None)
    return env


class Run:
    """One headless client run: exit code, the parsed JSON result (or None), stderr."""

    def __init__(self, home, model, prompt, *extra):
        model.clear()
        started = time.monotonic()
        try:
            out = subprocess.run(
                [common.client_bin("claude"), "-p", prompt, "--output-format", "json", *extra],
                env=client_env(home, model), cwd=home.work, capture_output=True, text=True,
                timeout=max(5, min(RUN_TIMEOUT, DEADLINE - time.monotonic())),
                stdin=subprocess.DEVNULL)
            self.code, self.stdout, self.stderr = out.returncode, out.stdout, out.stderr
        except subprocess.TimeoutExpired as e:
            self.code = "timeout"
            self.stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            self.stderr = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        self.result = None
        for line in reversed(self.stdout.strip().splitlines()):
            try:
                self.result = json.loads(line)
                break
            except ValueError:
                continue
        print(f"claude.py: claude -p {prompt[:12]!r}: {time.monotonic() - started:.1f}s, "
              f"exit {self.code}", file=sys.stderr)
        self.bodies = model.bodies()
        self.main = model.main_bodies()

    def answer(self):
        return (self.result or {}).get("result") if isinstance(self.result, dict) else None

    def describe(self):
        parts = [f"exit {self.code}", f"{len(self.bodies)} requests ({len(self.main)} main)"]
        if isinstance(self.result, dict):
            parts.append(f"result={str(self.result.get('result'))[:60]!r}")
            if self.result.get("is_error"):
                parts.append("is_error")
            if self.result.get("permission_denials"):
                parts.append(f"denied={json.dumps(self.result['permission_denials'], ensure_ascii=False)[:80]}")
        elif self.stdout.strip():
            parts.append(f"stdout={self.stdout.strip()[:80]!r}")
        if self.stderr.strip():
            parts.append(f"stderr={self.stderr.strip()[:100]!r}")
        return "; ".join(parts)


def debug_lines(home):
    path = home.root / ".config" / "tinylingo" / "debug.log"
    return path.read_text(errors="replace").splitlines() if path.exists() else []


def find_excerpt(bodies, needle, width=60):
    for body in bodies:
        # Compare the decoded text too: the client may send non-ASCII as \u escapes.
        for text in (body, decoded(body)):
            i = text.find(needle)
            if i >= 0:
                return text[max(0, i - width):i + len(needle) + width]
    return None


def decoded(body):
    try:
        return json.dumps(json.loads(body), ensure_ascii=False)
    except ValueError:
        return body


def contains(bodies, needle):
    return find_excerpt(bodies, needle) is not None


def strings(obj):
    """Every string inside a parsed JSON value."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, list):
        for item in obj:
            yield from strings(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from strings(item)


# "UserPromptSubmit hook additional context: …", "UserPromptSubmit hook success: …", and the
# like: how Claude Code labels what a hook added.
HOOK_PREFIX = re.compile(r"UserPromptSubmit hook [a-z][a-z -]{0,40}: ")
OUR_CONTEXT = "UserPromptSubmit hook additional context: <system-reminder>\n" + LABEL + "\n"


def hook_texts(body):
    """What hooks put into one request: Claude Code adds a hook's output as a text that starts
    "UserPromptSubmit hook additional context: …" (JSON answer) or "UserPromptSubmit hook
    success: …" (plain stdout). Returns each such text, from the prefix to its end."""
    try:
        req = json.loads(body)
    except ValueError:
        return []
    out = []
    for text in strings(req.get("messages", [])):
        starts = [m.start() for m in HOOK_PREFIX.finditer(text)] + [len(text)]
        out += [text[a:b] for a, b in zip(starts, starts[1:])]
    return out


def stray_hook_output(bodies):
    """Hook output in the requests that is not a well-formed tinylingo block."""
    return [t for b in bodies for t in hook_texts(b) if not t.startswith(OUR_CONTEXT)]


# --- checks -------------------------------------------------------------------------------

def check_session(model):
    """Checks 1–6 in one home: installed, TERM recorded, debug log on."""
    home = Home()
    try:
        home.tinylingo("install", "claude")
        home.tinylingo("record", TERM, EXPLANATION)
        home.tinylingo("config", "debug", "true")

        # 1–3: a prompt that mentions the term.
        before = debug_lines(home)
        model.replies = ["hit-answer"]
        run = Run(home, model, HIT_PROMPT)
        new = debug_lines(home)[len(before):]
        ours = [line for line in new if line.split()[1:2] == ["claude"]]
        if ours:
            report(CLIENT, "hook ran", "pass", ours[-1])
        else:
            report(CLIENT, "hook ran", "fail",
                   f"no claude line in debug.log after the prompt (new lines: {new[:2]}); {run.describe()}")

        main = run.main
        if not main:
            report(CLIENT, "explanation reached model", "fail", f"no main request; {run.describe()}")
            report(CLIENT, "instructions reached model", "fail", f"no main request; {run.describe()}")
        else:
            excerpt = find_excerpt(main, EXPLANATION)
            blocks = hook_texts(main[0])
            ours = [t for t in blocks if t.startswith(OUR_CONTEXT)]
            expected = f"- {TERM}: {EXPLANATION}"
            if not (excerpt and contains(main, LABEL) and contains(main, HIT_PROMPT)):
                report(CLIENT, "explanation reached model", "fail",
                       f"explanation={'yes' if excerpt else 'no'} label={contains(main, LABEL)} "
                       f"prompt={contains(main, HIT_PROMPT)} hook texts={blocks[:2]}; {run.describe()}")
            elif len(ours) != 1 or len(blocks) != 1 or expected not in ours[0]:
                report(CLIENT, "explanation reached model", "fail",
                       f"expected one hook context holding {expected!r}, got {blocks!r}")
            else:
                report(CLIENT, "explanation reached model", "pass", ours[0][:160])
            heading = "## TinyLingo"
            if contains(main, heading) and contains(main, "tinylingo record"):
                report(CLIENT, "instructions reached model", "pass",
                       "CLAUDE.md block in the first user message: "
                       + (find_excerpt(main, heading, 30) or ""))
            else:
                report(CLIENT, "instructions reached model", "fail",
                       f"heading={contains(main, heading)} "
                       f"'tinylingo record'={contains(main, 'tinylingo record')}; {run.describe()}")

        # 4: a prompt that mentions nothing.
        model.replies = ["miss-answer"]
        run = Run(home, model, MISS_PROMPT)
        leaked = [n for n in (EXPLANATION, LABEL) if contains(run.bodies, n)]
        hook_output = [t for b in run.main for t in hook_texts(b)]
        if not run.main or not contains(run.main, MISS_PROMPT):
            report(CLIENT, "no term, nothing of ours", "fail",
                   f"the prompt did not reach the model; {run.describe()}")
        elif leaked:
            report(CLIENT, "no term, nothing of ours", "fail",
                   f"found {leaked}: {find_excerpt(run.bodies, leaked[0])!r}")
        elif hook_output:
            report(CLIENT, "no term, nothing of ours", "fail",
                   f"the hook answered a prompt without a term: {hook_output[0][:120]!r}")
        else:
            report(CLIENT, "no term, nothing of ours", "pass",
                   f"{len(run.bodies)} request(s), no hook output, no explanation, no {LABEL}")

        # 5: the model records a term through its shell tool.
        model.replies = [{"shell": RECORD_COMMAND}, "recorded-answer"]
        run = Run(home, model, f"记住：{RECORDED_TERM}就是 staging 集群", "--allowedTools", ALLOW_RECORD)
        glossary = home.glossary()
        tool_results = [b for b in run.main if '"tool_result"' in b]
        if RECORDED_TERM in glossary:
            report(CLIENT, "record via shell", "pass",
                   f"Bash ran the record (allowed by --allowedTools \"{ALLOW_RECORD}\"); "
                   f"glossary: {RECORDED_TERM} → {glossary[RECORDED_TERM]}")
        else:
            result = find_excerpt(tool_results, '"tool_result"', 120) if tool_results else "none"
            report(CLIENT, "record via shell", "fail",
                   f"{RECORDED_TERM} not in the glossary; tool_result: {result}; {run.describe()}")

        check_broken(home, model)
    finally:
        home.cleanup()


def check_mcp(model):
    """`install --mcp`: Claude Code starts `tinylingo mcp` from ~/.claude.json (user scope) and
    offers its tools; the model's call of the `record` tool lands the term."""
    home = Home()
    try:
        # --allow-record adds the permission rule for the tool: headless, an MCP call that needs
        # permission is refused.
        home.tinylingo("install", "claude", "--mcp", "--allow-record")
        model.replies = [{"tool": MCP_TOOL, "input": MCP_ARGS}, "recorded-answer"]
        run = Run(home, model, f"记住：{MCP_TERM}的做法")
        offered = any(contains([b], f'"{MCP_TOOL}"') for b in run.main)
        glossary = home.glossary()
        if glossary.get(MCP_TERM) == MCP_EXPLANATION:
            report(CLIENT, "record via MCP", "pass",
                   f"{MCP_TOOL} offered and called (allowed by install --allow-record); glossary: "
                   f"{MCP_TERM} → {glossary[MCP_TERM]}")
        else:
            results = [b for b in run.main if '"tool_result"' in b]
            result = find_excerpt(results, '"tool_result"', 120) if results else "none"
            report(CLIENT, "record via MCP", "fail",
                   f"{MCP_TERM} not in the glossary; tool offered: {offered}; tool_result: "
                   f"{result}; {run.describe()}")
    finally:
        home.cleanup()


def prompt_went_through(run, answer):
    """'' when the prompt reached the model and the client printed its answer, else why not."""
    problems = []
    if run.code != 0:
        problems.append(f"client exit {run.code}")
    if not run.main or not contains(run.main, HIT_PROMPT):
        problems.append("the prompt never reached the model")
    if run.answer() != answer:
        problems.append(f"answer {run.answer()!r} instead of {answer!r}")
    return ", ".join(problems)


def broken_case(home, model, check, breakers, restore):
    """Break tinylingo each way in `breakers` (name, function), send HIT_PROMPT, check the
    prompt goes through; then `restore`."""
    failures, notes = [], []
    for name, breaker in breakers:
        breaker()
        answer = f"answer-{check.split()[-1]}-{len(notes) + len(failures)}"
        model.replies = [answer]
        logged = len(debug_lines(home))
        run = Run(home, model, HIT_PROMPT)
        log = [w for line in debug_lines(home)[logged:] for w in line.split()[1:]
               if not w[:1].isdigit() and not w.startswith(("exact=", "fuzzy=", "llm=", "total="))]
        problem = prompt_went_through(run, answer)
        injected = "explanation still injected" if contains(run.main, EXPLANATION) else "no injection"
        # The hook must fail silently (no output, exit 0): anything else it prints reaches the
        # model as "UserPromptSubmit hook success: …".
        stray = stray_hook_output(run.main)
        if stray and not problem:
            problem = f"the broken hook's output reached the model: {stray[0][:100]!r}"
        extra = injected + (f", debug.log: {' '.join(log)[:60]}" if log else ", no debug.log line")
        if run.stderr.strip():
            extra += f", client stderr {run.stderr.strip()[:80]!r}"
        if problem:
            failures.append(f"{name}: {problem}; {run.describe()}")
        else:
            notes.append(f"{name}: ok ({extra})")
    restore()
    if failures:
        report(CLIENT, check, "fail", " | ".join(failures + notes))
    else:
        report(CLIENT, check, "pass", " | ".join(notes))


def check_broken(home, model):
    config = home.root / ".config" / "tinylingo"
    link = config / "scripts" / "tinylingo"

    def remove_link():
        link.unlink()

    def dangle_link():
        # A link whose target is gone (the binary was uninstalled or moved). The real target
        # belongs to the developer, so point the link at a path that does not exist.
        if link.is_symlink() or link.exists():
            link.unlink()
        os.symlink(home.root / "uninstalled" / "tinylingo", link)

    def reinstall():
        home.tinylingo("install", "claude")

    broken_case(home, model, "broken: binary gone",
                [("link deleted", remove_link), ("link dangling", dangle_link)], reinstall)

    index = config / "glossary.index"
    glossary = config / "glossary.json"

    def corrupt_index():
        index.write_bytes(b"\x00garbage\xff" * 64)

    def truncate_index():
        index.write_bytes(b"")

    def rebuild():
        home.tinylingo("record", TERM, EXPLANATION)

    broken_case(home, model, "broken: index corrupted",
                [("garbage", corrupt_index), ("empty", truncate_index)], rebuild)

    good = glossary.read_bytes()

    def invalid_json():
        glossary.write_text('{"智能抠图": "unterminated', encoding="utf-8")

    def not_an_object():
        glossary.write_text("[1, 2, 3]\n", encoding="utf-8")

    def restore_glossary():
        glossary.write_bytes(good)

    broken_case(home, model, "broken: glossary invalid",
                [("invalid JSON", invalid_json), ("JSON array", not_an_object)], restore_glossary)


# --- uninstall -----------------------------------------------------------------------------

USER_SETTINGS_4SPACE = (
    '{\n'
    '    "x": 1.10,\n'
    '    "name": "Ren\\u00e9",\n'
    '    "hooks": {\n'
    '        "UserPromptSubmit": [\n'
    '            {\n'
    '                "hooks": [\n'
    '                    {\n'
    '                        "type": "command",\n'
    '                        "command": "echo user-hook"\n'
    '                    }\n'
    '                ]\n'
    '            }\n'
    '        ]\n'
    '    }\n'
    '}\n'
)


def first_difference(old, new):
    """The first line that differs between two byte strings, shortly."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    for n, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            x, y = (v.decode(errors="replace").strip()[:16] for v in (x, y))
            return f"line {n} {x!r}→{y!r}"
    return f"{len(a)} lines became {len(b)}"


def uninstall_case(name, files, model=None):
    """A fresh home whose ~/.claude holds `files` (relative path → text; {} = empty folder):
    snapshot, install, uninstall, snapshot. Returns '' when identical, else what differs.
    With `model`, the client runs one prompt between install and uninstall, as a real user's
    would; it writes files of its own, so then only what existed before is compared."""
    home = Home()
    try:
        claude_dir = home.root / ".claude"
        claude_dir.mkdir()
        for rel, text in files.items():
            (claude_dir / rel).write_bytes(text.encode())
        before = snapshot(claude_dir)
        out = home.tinylingo("install", "claude", check=False)
        if out.returncode != 0:
            return f"{name}: install exit {out.returncode}: {out.stderr.strip()[:100]}"
        installed = snapshot(claude_dir)
        if not snapshot_diff(before, installed):
            return f"{name}: install changed nothing in ~/.claude"
        if model is not None:
            model.replies = ["used"]
            run = Run(home, model, HIT_PROMPT)
            if run.code != 0 or not run.main:
                return f"{name}: the client run failed: {run.describe()}"
        out = home.tinylingo("uninstall", "claude", check=False)
        if out.returncode != 0:
            return f"{name}: uninstall exit {out.returncode}: {out.stderr.strip()[:100]}"
        after = snapshot(claude_dir)
        if model is not None:
            # Only what the user had: the client's own files and folders are left out.
            after = ({p: b for p, b in after[0].items() if p in before[0]},
                     {d for d in after[1] if d in before[1]})
        diff = snapshot_diff(before, after)
        if not claude_dir.is_dir():
            diff = "; ".join(filter(None, [diff, "dir gone: ~/.claude"]))
        if diff:
            for rel in files:
                old, new = before[0].get(rel), after[0].get(rel)
                if old is not None and new is not None and old != new:
                    diff += f" [{rel}: {first_difference(old, new)}]"
            return f"{name}: {diff}"
        return ""
    finally:
        home.cleanup()


def check_uninstall(model):
    cases = [
        ("{} + empty CLAUDE.md", {"settings.json": "{}", "CLAUDE.md": ""}),
        ("4-space settings", {
            "settings.json": USER_SETTINGS_4SPACE,
            "CLAUDE.md": "# My rules\n\nAlways answer in English.",
        }),
        ("empty ~/.claude", {}),
        ("CRLF CLAUDE.md only", {"CLAUDE.md": "# Rules\r\n\r\n- be brief\r\n"}),
    ]
    problems = [p for p in (uninstall_case(name, files) for name, files in cases) if p]
    # A real user's order: install, use the assistant, uninstall.
    used = "client run between"
    problem = uninstall_case(used, {"settings.json": USER_SETTINGS_4SPACE, "CLAUDE.md": "# Rules\n"},
                             model)
    cases.append((used, None))
    if problem:
        problems.append(problem)
    if problems:
        for problem in problems:
            print(f"claude uninstall restores files: {problem}", file=sys.stderr)
        report(CLIENT, "uninstall restores files", "fail", " | ".join(problems))
    else:
        report(CLIENT, "uninstall restores files", "pass",
               f"{len(cases)} homes byte-identical after install+uninstall: "
               + ", ".join(name for name, _ in cases))


# --- thread journal ---------------------------------------------------------------------------

def request_model(bodies):
    """The `model` the client asked the fake server for in its main request."""
    for body in bodies:
        try:
            return json.loads(body).get("model")
        except (ValueError, AttributeError):
            continue
    return None


def check_journal(model):
    """`journal entry` (common.check_journal) with the Stop hook in ~/.claude/settings.json.
    Claude Code's Stop event carries no model (2.1.197: session_id, transcript_path, cwd,
    prompt_id, last_assistant_message, …); its transcript's assistant entry does
    (`message.model`, as the server answered: the requested model), but it lands after the Stop
    hook has started, so 模型 may be `unknown` (any other name must be the requested model)."""
    home = Home()

    def exchange(prompt, reply):
        model.replies = [reply]
        run = Run(home, model, prompt)
        return common.Exchange(
            asked=request_model(run.main),
            answer_problem="" if run.code == 0 and run.answer() == reply else run.describe(),
            prompt_problem="" if run.code == 0 and run.main else run.describe(),
            note=f"client: {run.describe()}")

    try:
        # Stop names no model. The transcript's assistant entry does, but Claude Code writes
        # it 5-50 ms after it starts the Stop hook (see the notes at the top): `unknown` passes.
        report(CLIENT, common.JOURNAL_CHECK, *common.check_journal(
            "claude", home, exchange,
            model_source="the transcript's assistant entry (message.model)",
            found_in="read from the transcript",
            unknown_ok="Stop names none; the transcript's entry lands after Stop starts",
            settings=home.root / ".claude" / "settings.json", event="Stop",
            prompt_event="UserPromptSubmit"))
    finally:
        home.cleanup()


def main():
    start = time.monotonic()
    common.binary()
    claude = common.client_bin("claude")
    if not os.access(claude, os.X_OK):
        sys.exit(f"no Claude Code client at {claude}")
    model = AnthropicModel()
    try:
        guarded(check_session, SESSION_CHECKS, model)
        guarded(check_journal, JOURNAL_CHECKS, model)
        guarded(check_uninstall, UNINSTALL_CHECKS, model)
        guarded(check_mcp, MCP_CHECKS, model)
    finally:
        model.stop()
    print(f"claude.py: {time.monotonic() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
