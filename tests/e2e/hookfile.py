"""The checks every hook-file client's driver runs (`copilot.py`, `qwen.py`): clients that
register a command hook in a JSON file and talk to an OpenAI-compatible chat-completions
server, faked here on 127.0.0.1 (`ChatFake`).

A driver describes its client with a `Client` subclass (how to run one prompt headless, which
request is the conversation, where its files are) and calls `main(ClientClass)`. The checks:
the hook runs, the explanation and the instruction block reach the model, a prompt without a
term carries nothing of ours, a deleted binary does not stop the prompt, the thread journal
gets one entry (common.check_journal), and install + uninstall leave the user's files byte for
byte.
"""

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import common
from common import EXPLANATION, HIT_PROMPT, MISS_PROMPT, TERM, FakeModel, Home, message_text

MARK = "[TinyLingo]"
START, END = "<!-- TINYLINGO-START -->", "<!-- TINYLINGO-END -->"
RUN_TIMEOUT = 90  # one headless prompt
DEADLINE = time.monotonic() + 270  # the runner kills a driver at 300 s


def request_text(data):
    return "\n".join(message_text(m) for m in data.get("messages", []))


class ChatFake(FakeModel):
    """OpenAI chat completions, streamed or not. The conversation request (`is_main`) takes
    the scripted reply; side requests (titles, memory extraction) get "ok"."""

    def __init__(self, is_main):
        super().__init__()
        self.is_main = is_main
        self.calls = 0

    def answer(self, handler, path, body):
        if not path.rstrip("/").endswith("/chat/completions"):
            return self.send_json(handler, {"error": {"message": f"no such endpoint {path}"}}, 404)
        try:
            data = json.loads(body or "{}")
        except ValueError:
            return self.send_json(handler, {"error": {"message": "body is not JSON"}}, 400)
        reply = self.next_reply() if self.is_main(data) else "ok"
        with self.lock:
            self.calls += 1
            call_id = f"chatcmpl-{self.calls}"
        base = {"id": call_id, "created": int(time.time()), "model": data.get("model", "m")}
        usage = {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}
        if isinstance(reply, dict) and ("mcp" in reply or "tool" in reply):
            # The MCP tool under whatever name the client offers it, or a client's own tool
            # ({"tool": name}, e.g. Copilot CLI's `skill`).
            # Qwen Code declares MCP tools lazily: named in the system prompt, found through its
            # tool_search, callable by name.
            names = [t.get("function", {}).get("name") or "" for t in data.get("tools") or []]
            names += re.findall(r"[\w-]*tinylingo[\w-]*", request_text(data))
            name = reply.get("tool") or next(
                (n for n in names if "tinylingo" in n and n.endswith(reply["mcp"])),
                "missing_tool")
            call = {"index": 0, "id": f"call_{self.calls}", "type": "function",
                    "function": {"name": name,
                                 "arguments": json.dumps(reply["input"], ensure_ascii=False)}}
            delta = {"role": "assistant", "content": None, "tool_calls": [call]}
            return self.send_sse(handler, [
                (None, dict(base, object="chat.completion.chunk",
                            choices=[{"index": 0, "delta": delta, "finish_reason": None}])),
                (None, dict(base, object="chat.completion.chunk",
                            choices=[{"index": 0, "delta": {}, "finish_reason": "tool_calls"}])),
                (None, "[DONE]")])
        reply = str(reply)
        if not data.get("stream"):
            message = {"role": "assistant", "content": reply}
            return self.send_json(handler, dict(base, object="chat.completion", usage=usage,
                                                choices=[{"index": 0, "message": message,
                                                          "finish_reason": "stop"}]))
        base["object"] = "chat.completion.chunk"
        delta = {"role": "assistant", "content": reply}
        chunks = [dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
                  dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]),
                  dict(base, choices=[], usage=usage)]
        self.send_sse(handler, [(None, c) for c in chunks] + [(None, "[DONE]")])

    def mains(self):
        out = []
        for body in self.bodies():
            try:
                data = json.loads(body)
            except ValueError:
                continue
            if isinstance(data, dict) and self.is_main(data):
                out.append(data)
        return out


class Client:
    """One temporary HOME with a client set up against the fake model. Subclasses set the
    class attributes and implement `command` and `env`."""

    name = ""  # tinylingo's name for the assistant, and the npm binary's
    folder = ""  # the config folder under HOME
    hook_file = ""  # the file holding the hooks, relative to `folder`
    prompt_event = ""
    after_event = ""
    rules = ""  # the instruction file, relative to `folder`

    def __init__(self, model):
        self.model = model
        self.home = Home()
        self.dir = self.home.root / self.folder

    def setup(self):
        """What the user has before install (settings a headless run needs)."""

    def command(self, prompt):
        raise NotImplementedError

    # What a headless run needs to let the model call the MCP server's `record` tool, besides
    # `install --mcp --allow-record`.
    mcp_flags = []

    def env(self):
        raise NotImplementedError

    @staticmethod
    def is_main(data):
        """Whether a request is the conversation (not a side request)."""
        return bool(data.get("tools"))

    def run(self, prompt, *flags):
        """Runs one prompt headless; returns the CompletedProcess (returncode None: killed)."""
        timeout = max(5, min(RUN_TIMEOUT, DEADLINE - time.monotonic()))
        cmd = self.command(prompt)
        cmd[1:1] = flags
        proc = subprocess.Popen(cmd, env=self.env(), cwd=self.home.work,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
            return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate(timeout=10)
            return subprocess.CompletedProcess(proc.args, None, out, err)

    def outcome(self, proc):
        if proc.returncode is None:
            return f"{self.name} timed out (killed)"
        tail = " ".join((proc.stderr or proc.stdout or "").split())[-200:]
        return f"{self.name} exit {proc.returncode}: {tail}".replace(str(self.home.root), "~")

    def block(self):
        """The instruction block install wrote (markers included), or ""."""
        path = self.dir / self.rules
        text = path.read_text() if path.exists() else ""
        m = re.search(re.escape(START) + r".*?" + re.escape(END), text, re.S)
        return m.group(0) if m else ""


def debug_lines(home):
    path = home.root / ".config" / "tinylingo" / "debug.log"
    return path.read_text(errors="replace").splitlines() if path.exists() else []


def user_turn(data, prompt):
    """The text of the user message holding `prompt` in a conversation request, or None."""
    for m in data.get("messages", []):
        if m.get("role") == "user" and prompt in message_text(m):
            return message_text(m)
    return None


def check_session(cls, model, report):
    c = cls(model)
    home = c.home
    try:
        c.setup()
        home.tinylingo("install", c.name)
        home.tinylingo("record", TERM, EXPLANATION)
        home.tinylingo("config", "debug", "true")
        block = c.block()

        # A prompt that mentions the term.
        model.clear()
        seen = len(debug_lines(home))
        started = time.monotonic()
        proc = c.run(HIT_PROMPT)
        secs = time.monotonic() - started
        new = [line for line in debug_lines(home)[seen:] if c.name in line]
        turns = [t for t in (user_turn(d, HIT_PROMPT) for d in model.mains()) if t is not None]
        if new:
            report("hook ran", "pass", f"debug.log: {new[-1][:160]} ({secs:.0f} s)")
        else:
            report("hook ran", "fail", f"no {c.name} line in debug.log; {c.outcome(proc)}")
        if not turns:
            report("explanation reached model", "fail",
                   f"no conversation request with the prompt; {c.outcome(proc)}")
        elif EXPLANATION in turns[0] and MARK in turns[0]:
            escaped = "&lt;" in turns[0] or "&gt;" in turns[0]
            report("explanation reached model", "fail" if escaped else "pass",
                   ("escaped tags reach the model: " if escaped else "user turn: ")
                   + repr(turns[0][turns[0].find(HIT_PROMPT):][:220]))
        else:
            report("explanation reached model", "fail",
                   f"the user turn lacks the block: {turns[0][-200:]!r}")
        texts = [request_text(d) for d in model.mains() if user_turn(d, HIT_PROMPT)]
        if not block or "tinylingo record" not in block:
            report("instructions reached model", "fail",
                   f"~/{c.folder}/{c.rules} has no instruction block after install")
        elif any(block in t for t in texts):
            report("instructions reached model", "pass",
                   f"the {c.rules} block ({len(block)} chars) verbatim in the request")
        else:
            report("instructions reached model", "fail",
                   f"the {c.rules} block is not in the conversation request ({len(texts)} "
                   f"requests); {c.outcome(proc)}")
        home.tinylingo("config", "debug", "false")

        # A prompt that mentions nothing.
        model.clear()
        proc = c.run(MISS_PROMPT)
        turns = [t for t in (user_turn(d, MISS_PROMPT) for d in model.mains()) if t is not None]
        ours = [b for b in map(decoded, model.bodies()) if EXPLANATION in b or MARK in b]
        if proc.returncode != 0 or not turns:
            report("no term, nothing of ours", "fail",
                   f"no conversation request with the prompt; {c.outcome(proc)}")
        elif ours:
            report("no term, nothing of ours", "fail",
                   f"{len(ours)} request(s) hold the explanation or {MARK}")
        else:
            report("no term, nothing of ours", "pass",
                   f"{len(model.bodies())} requests, none with ours")

        # The binary deleted without uninstall: the prompt must still go through, untouched.
        link = home.root / ".config" / "tinylingo" / "scripts" / "tinylingo"
        link.unlink()
        model.clear()
        proc = c.run(HIT_PROMPT)
        turns = [t for t in (user_turn(d, HIT_PROMPT) for d in model.mains()) if t is not None]
        if proc.returncode != 0 or not turns:
            report("broken: binary gone", "fail",
                   f"the prompt did not reach the model; {c.outcome(proc)}")
        elif "No such file" in turns[0] or "not found" in turns[0]:
            report("broken: binary gone", "fail",
                   f"the shell's error reached the model: {turns[0][-200:]!r}")
        else:
            report("broken: binary gone", "pass", f"{c.name} exit 0, the prompt alone reached "
                   "the model")
    finally:
        home.cleanup()


def decoded(body):
    try:
        return json.dumps(json.loads(body), ensure_ascii=False)
    except ValueError:
        return body


def check_journal(cls, model, report):
    c = cls(model)

    def exchange(prompt, reply):
        model.clear()
        model.replies = [reply]
        proc = c.run(prompt)
        mains = [d for d in model.mains() if user_turn(d, prompt) is not None]
        ok = proc.returncode == 0
        answered = ok and reply in (proc.stdout or "")
        return common.Exchange(
            asked=mains[0].get("model") if mains else None,
            answer_problem="" if answered else f"{c.outcome(proc)}, stdout {proc.stdout[-120:]!r}",
            prompt_problem="" if ok and mains else c.outcome(proc),
            note=c.outcome(proc))

    try:
        c.setup()
        report(common.JOURNAL_CHECK, *common.check_journal(
            c.name, c.home, exchange, model_source="the transcript",
            found_in="matches the request", settings=c.dir / c.hook_file,
            event=c.after_event, prompt_event=c.prompt_event))
    except Exception as e:  # noqa: BLE001 - the table must still get the line
        report(common.JOURNAL_CHECK, "fail", f"driver error: {type(e).__name__}: {e}")
    finally:
        c.home.cleanup()


def check_mcp(cls, model, report):
    """`install --mcp --allow-record`: the client starts `tinylingo mcp` and offers its tools;
    the model's call of `record` lands the term."""
    c = cls(model)
    try:
        c.setup()
        c.home.tinylingo("install", c.name, "--mcp", "--allow-record")
        model.clear()
        model.replies = [{"mcp": "record", "input": common.MCP_ARGS}, "已记录"]
        proc = c.run(f"记住：{common.MCP_TERM}的做法", *c.mcp_flags)
        model.replies = []
        calls = [c["function"]["name"] for d in model.mains() for m in d.get("messages", [])
                 for c in m.get("tool_calls") or []]
        glossary = c.home.glossary()
        if glossary.get(common.MCP_TERM) == common.MCP_EXPLANATION:
            report("record via MCP", "pass", f"{calls[0] if calls else '?'} called"
                   f"{' with ' + ' '.join(c.mcp_flags) if c.mcp_flags else ''}; glossary: "
                   f"{common.MCP_TERM} → {glossary[common.MCP_TERM]}")
        else:
            report("record via MCP", "fail", f"tool calls: {calls}; " + c.outcome(proc))
    finally:
        c.home.cleanup()


def check_uninstall(cls, cases, report):
    """install + uninstall leave the home byte for byte (no client run in between): `cases`
    are (name, {path under the folder: text}) pairs."""
    problems, passed = [], []
    for name, files in cases:
        home = Home()
        try:
            folder = home.root / cls.folder
            folder.mkdir(parents=True)
            for rel, text in files.items():
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                (folder / rel).write_bytes(text.encode())
            skip = (".config/tinylingo",)
            before = common.snapshot(home.root, skip)
            inst = home.tinylingo("install", cls.name, check=False)
            un = home.tinylingo("uninstall", cls.name, check=False)
            after = common.snapshot(home.root, skip)
            after[1].discard(".config")
            diff = common.snapshot_diff(before, after)
            if inst.returncode or un.returncode:
                problems.append(f"{name}: install exit {inst.returncode}, uninstall exit "
                                f"{un.returncode} ({(inst.stderr + un.stderr).strip()[:80]})")
            elif diff:
                problems.append(f"{name}: {diff}")
            else:
                passed.append(name)
        finally:
            home.cleanup()
    if problems:
        report("uninstall restores files", "fail", "; ".join(problems))
    else:
        report("uninstall restores files", "pass", "identical bytes: " + ", ".join(passed))


def main(cls, uninstall_cases):
    common.binary()
    exe = Path(common.client_bin(cls.name))
    if not exe.exists():
        raise SystemExit(f"{exe} missing: run tests/e2e/run to install the clients")

    def report(check, status, detail=""):
        common.report(cls.name, check, status, detail)

    model = ChatFake(cls.is_main)
    try:
        for check in (check_session, check_journal, check_mcp):
            try:
                check(cls, model, report)
            except Exception as e:  # noqa: BLE001 - the table must still get a line
                report(check.__name__, "fail", f"driver error: {type(e).__name__}: {e}")
    finally:
        model.stop()
    check_uninstall(cls, uninstall_cases, report)
