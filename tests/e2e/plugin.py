"""What the plugin clients' drivers share (`opencode.py`, `pi.py`, `kilo.py`): clients that load
a plugin or extension file of ours instead of running a hook command, and talk to an
OpenAI-compatible chat-completions server, faked here on 127.0.0.1 (`ChatCompletions`).

A driver describes its client with a `Client` subclass (the command of one headless prompt, its
environment, its config folder) and its checks with a `Driver`; the shared checks are the
instruction block, the explanation, a prompt without a term, a deleted binary, the thread
journal (common.check_journal) and install + uninstall byte for byte. What a driver keeps is
what differs: the package and binary, the config files a headless run needs, where the
plugin's text lands in the request, and checks only one client gets.
"""

import json
import re
import time

import common
from common import EXPLANATION, FakeModel, Home, message_text

MARK = "[TinyLingo]"
START, END = "<!-- TINYLINGO-START -->", "<!-- TINYLINGO-END -->"


def data_text(data):
    """Every message's text of a decoded request, joined."""
    return "\n".join(message_text(m) for m in data.get("messages", []))


def request_text(body):
    """Every message's text of a request body, joined (decoded JSON, so escapes are gone)."""
    try:
        data = json.loads(body)
    except ValueError:
        return body
    return data_text(data)


def is_main(data):
    """The main conversation request carries the tools; side requests (titles) carry none."""
    return bool(data.get("tools"))


def shell_params(data):
    """The `bash` tool's parameter names in a request, or {} when it has none."""
    for tool in data.get("tools", []):
        fn = tool.get("function", {})
        if fn.get("name") == "bash":
            return fn.get("parameters", {}).get("properties", {})
    return {}


class ChatCompletions(FakeModel):
    """OpenAI chat completions, streamed: text replies, `bash` tool calls and MCP tool calls.
    Side requests (no `tools`: OpenCode's title) get a fixed text and never take a scripted
    reply."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def answer(self, handler, path, body):
        if not path.rstrip("/").endswith("/chat/completions"):
            self.send_json(handler, {"error": {"message": f"no such endpoint {path}"}}, 404)
            return
        try:
            data = json.loads(body or "{}")
        except ValueError:
            self.send_json(handler, {"error": {"message": "body is not JSON"}}, 400)
            return
        reply = self.next_reply() if is_main(data) else "Glossary check"
        with self.lock:
            self.calls += 1
            call_id = f"chatcmpl-{self.calls}"
        base = {"id": call_id, "object": "chat.completion.chunk", "created": int(time.time()),
                "model": data.get("model", "m")}
        if isinstance(reply, dict) and "mcp" in reply:
            # The MCP tool under whatever name the client offers it.
            names = [t.get("function", {}).get("name") for t in data.get("tools") or []]
            name = next((n for n in names if n and "tinylingo" in n and n.endswith(reply["mcp"])),
                        "missing_tool")
            delta = {"role": "assistant", "content": None, "tool_calls": [{
                "index": 0, "id": f"call_{self.calls}", "type": "function",
                "function": {"name": name,
                             "arguments": json.dumps(reply["input"], ensure_ascii=False)}}]}
            finish = "tool_calls"
        elif isinstance(reply, dict) and "shell" in reply:
            args = {"command": reply["shell"]}
            if "description" in shell_params(data):
                args["description"] = "Record a glossary term"
            delta = {"role": "assistant", "content": None, "tool_calls": [{
                "index": 0, "id": f"call_{self.calls}", "type": "function",
                "function": {"name": "bash", "arguments": json.dumps(args, ensure_ascii=False)}}]}
            finish = "tool_calls"
        else:
            delta = {"role": "assistant", "content": str(reply)}
            finish = "stop"
        chunks = [
            dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
            dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]),
            dict(base, choices=[], usage={"prompt_tokens": 10, "completion_tokens": 2,
                                          "total_tokens": 12}),
        ]
        self.send_sse(handler, [(None, c) for c in chunks] + [(None, "[DONE]")])

    def parsed(self):
        out = []
        for body in self.bodies():
            try:
                out.append(json.loads(body))
            except ValueError:
                out.append({})
        return out

    def main_requests(self):
        return [d for d in self.parsed() if is_main(d)]


def user_parts(requests, prompt):
    """The text parts of the user message holding `prompt`, in the first of `requests` that has
    one; None when none does."""
    for data in requests:
        for m in data.get("messages", []):
            if m.get("role") != "user" or prompt not in message_text(m):
                continue
            content = m.get("content")
            parts = content if isinstance(content, list) else [{"text": content}]
            return [p.get("text", "") for p in parts if isinstance(p, dict)]
    return None


def fake_provider_config(model, **extra):
    """The JSON of an OpenCode-style config (OpenCode's `opencode.json`, Kilo's `kilo.json`: Kilo
    is a fork and reads the same shape) that sends every request to the fake `model` through
    the bundled `@ai-sdk/openai-compatible` package, lets the shell run, and turns off
    updates and sharing. `extra` keys go first (such as `$schema`)."""
    return json.dumps({
        **extra,
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
    }, indent=2) + "\n"


def instruction_block(folder):
    """The text install put between the markers of `folder`/AGENTS.md (without the markers)."""
    path = folder / "AGENTS.md"
    text = path.read_text() if path.exists() else ""
    m = re.search(re.escape(START) + r"(.*?)" + re.escape(END), text, re.S)
    return m.group(1).strip() if m else ""


def debug_lines(home):
    path = home.root / ".config" / "tinylingo" / "debug.log"
    return path.read_text(errors="replace").splitlines() if path.exists() else []


class Client:
    """A temporary home with a client set up against the fake model. Subclasses set `name`,
    `folder` (the config folder under HOME, which holds AGENTS.md) and the timeouts, and
    implement `configure`, `command` and `env`."""

    name = ""
    folder = ""
    run_timeout = 60  # one headless prompt
    deadline = 0.0  # the whole driver's (time.monotonic()); the runner kills it at 300 s

    def __init__(self, model):
        self.model = model
        self.home = Home()
        self.dir = self.home.root / self.folder
        self.dir.mkdir(parents=True)
        self.configure()

    def configure(self):
        """Writes what a headless run against the fake model needs."""

    def command(self, prompt):
        raise NotImplementedError

    def env(self):
        raise NotImplementedError

    def run(self, prompt):
        """One headless prompt; returns the CompletedProcess (timeout → returncode None). The
        client runs in its own process group, killed whole on a timeout."""
        self.model.clear()
        timeout = max(5, min(self.run_timeout, self.deadline - time.monotonic()))
        return common.run_client(self.command(prompt), self.env(), self.home.work, timeout)

    def outcome(self, proc):
        if proc.returncode is None:
            return f"{self.name} timed out (killed)"
        tail = " ".join((proc.stderr or proc.stdout or "").split())[-200:]
        return f"{self.name} exit {proc.returncode}: {tail}"

    def block(self):
        return instruction_block(self.dir)

    def reached(self, prompt):
        """Whether a main request of the last run holds the prompt in a user message."""
        return user_parts(self.model.main_requests(), prompt) is not None

    def cleanup(self):
        self.home.cleanup()


class Driver:
    """A driver's checks and its report lines: the checks not reported when the driver fails
    are reported failed, with the reason."""

    def __init__(self, client, checks):
        self.client = client
        self.checks = checks
        self.reported = set()

    def report(self, check, status, detail=""):
        self.reported.add(check)
        common.report(self.client, check, status, detail)

    def main(self, exe_ok, exe, with_model, uninstall):
        """Runs `with_model(model)` against a fake model when the client is installed (else
        reports its checks skipped), then `uninstall()`, which runs no client."""
        common.binary()
        try:
            if not exe_ok:
                for check in self.checks:
                    if check != "uninstall restores files":
                        self.report(check, "skip", f"no {self.client} at {exe}")
            else:
                model = ChatCompletions()
                try:
                    with_model(model)
                finally:
                    model.stop()
            uninstall()
        except Exception as e:  # the checks not reached yet fail, with the reason
            for check in self.checks:
                if check not in self.reported:
                    self.report(check, "fail",
                                f"driver error before this check: {type(e).__name__}: {e}")
            raise

    # --- checks whose evidence the driver gathered -------------------------------------------

    def hook_ran(self, lines, proc, c):
        if lines:
            self.report("hook ran", "pass", lines[-1])
        else:
            self.report("hook ran", "fail", f"no {c.name} line in debug.log; {c.outcome(proc)}")

    def explanation(self, added, proc, c, where):
        """`added`: the texts the plugin's message or part could be in (None: no request held
        the prompt)."""
        if added is None:
            self.report("explanation reached model", "fail",
                        f"no request with the prompt; {c.outcome(proc)}")
        elif any(EXPLANATION in t and MARK in t for t in added):
            self.report("explanation reached model", "pass", where)
        else:
            self.report("explanation reached model", "fail", f"{where}: {added}")

    def instructions(self, block, texts, proc, c):
        """`texts`: the main requests' texts of the run with the term."""
        if not block:
            self.report("instructions reached model", "fail",
                        f"no block in ~/{c.folder}/AGENTS.md after install")
        elif any(block in t for t in texts):
            self.report("instructions reached model", "pass")
        else:
            self.report("instructions reached model", "fail",
                        f"the block from AGENTS.md is not in the request; {c.outcome(proc)}")

    def nothing_of_ours(self, reached, texts, proc, c, gained=()):
        """`texts`: every request's text of the run without a term; `gained`: what the
        prompt's message gained, which must be nothing."""
        leaked = [s for s in (EXPLANATION, MARK) if any(s in t for t in texts)]
        if proc.returncode != 0 or not reached:
            self.report("no term, nothing of ours", "fail",
                        f"no request with the prompt; {c.outcome(proc)}")
        elif leaked or gained:
            self.report("no term, nothing of ours", "fail",
                        f"a request holds {leaked}" if leaked else f"the prompt gained {gained}")
        else:
            self.report("no term, nothing of ours", "pass")

    def binary_gone(self, added, proc, c):
        """After the binary's link was deleted: `added` as for `explanation`."""
        if proc.returncode != 0 or added is None:
            self.report("broken: binary gone", "fail",
                        f"the prompt did not go through: {c.outcome(proc)}")
        elif any(MARK in t for t in added):
            self.report("broken: binary gone", "fail", f"the request gained {added[0][:150]!r}")
        else:
            self.report("broken: binary gone", "pass", "prompt sent, nothing added")

    # --- checks that run the client -----------------------------------------------------------

    def journal(self, c, plugin, model_source, found_in, seen=None):
        """`journal entry` in `c`'s home; `plugin` is the file that must stay after `thread
        off`. Each exchange's (prompt, process, main requests) is appended to `seen` if given."""
        model = c.model

        def exchange(prompt, reply):
            model.replies = [reply]
            proc = c.run(prompt)
            model.replies = []
            mains = model.main_requests()
            if seen is not None:
                seen.append((prompt, proc, mains))
            ok = proc.returncode == 0
            return common.Exchange(
                asked=mains[0].get("model") if mains else None,
                answer_problem="" if ok and reply in (proc.stdout or "") else c.outcome(proc),
                prompt_problem="" if ok and c.reached(prompt) else (
                    c.outcome(proc) if not ok else "no request held the prompt"))

        self.report(common.JOURNAL_CHECK, *common.check_journal(
            c.name, c.home, exchange, model_source=model_source, found_in=found_in,
            plugin=plugin))

    def uninstall(self, cls, seed, install=(), none_before=None):
        """`uninstall restores files`, without running the client: install + uninstall leave
        the config folder byte for byte, once with the user's files in it (`seed(folder)` writes
        them; `install` adds install's flags) and once empty, or with `none_before` (the top
        folder under HOME) once with no folder at all, which uninstall must take away again."""
        homes = []
        try:
            home = Home()
            homes.append(home)
            folder = home.root / cls.folder
            folder.mkdir(parents=True)
            seed(folder)
            before = common.snapshot(folder)
            home.tinylingo("install", cls.name, *install)
            installed = common.snapshot(folder)
            home.tinylingo("uninstall", cls.name)
            problems = []
            if installed == before:
                problems.append("install changed nothing")
            diff = common.snapshot_diff(before, common.snapshot(folder))
            if diff:
                problems.append(f"with files: {diff}")

            home = Home()
            homes.append(home)
            folder = home.root / cls.folder
            if none_before is None:
                folder.mkdir(parents=True)
            home.tinylingo("install", cls.name)
            home.tinylingo("uninstall", cls.name)
            if none_before is not None:
                top = home.root / none_before
                if top.exists():
                    problems.append(f"no folder before: left {common.snapshot(top)}")
            elif not folder.is_dir():
                problems.append(f"empty folder: ~/{cls.folder} gone")
            else:
                diff = common.snapshot_diff(({}, set()), common.snapshot(folder))
                if diff:
                    problems.append(f"empty folder: {diff}")
            self.report("uninstall restores files", "fail" if problems else "pass",
                        "; ".join(problems))
        finally:
            for home in homes:
                home.cleanup()
