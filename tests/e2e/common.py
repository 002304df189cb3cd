"""Shared pieces of the end-to-end suite: a temporary home, the tinylingo binary, fake model
servers on 127.0.0.1, byte-for-byte snapshots, the result lines the runner tabulates, and
the thread-journal check every driver runs (`check_journal`, with the journal file's parser).

Each client's driver (`claude.py`, `codex.py`, …) imports this module, runs its checks and
prints one line per check on stdout:  CLIENT<TAB>CHECK<TAB>pass|fail|skip<TAB>DETAIL.
`run` turns those lines into the table and the exit status.
"""

import contextlib
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# The term every driver records, a prompt that mentions it, and one that mentions nothing.
TERM = "智能抠图"
EXPLANATION = "ProjectA 背景移除模块，类名 BGRemover，位于 src/modules/bgremove/"
HIT_PROMPT = "智能抠图的边缘有锯齿，帮我看看"
MISS_PROMPT = "今天天气不错，随便聊聊"
# What the fake model asks the client's shell tool to run, and the term it records.
RECORDED_TERM = "联调环境"
RECORD_COMMAND = 'tinylingo record 联调环境 "staging 集群 k8s-stg，入口 https://stg.example.invalid"'
# What the fake model records through the MCP server's `record` tool (`install --mcp`).
MCP_TERM = "灰度发布"
MCP_EXPLANATION = "先发 5% 流量到 canary 组，观察 30 分钟再全量"
MCP_ARGS = {"term": MCP_TERM, "explanation": MCP_EXPLANATION}

# Environment variables that would point tinylingo or an assistant somewhere other than HOME,
# or make a client talk to a real service.
FOREIGN_ENV = [
    "TINYLINGO_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME",
    "CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME",
    "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "GEMINI_API_KEY", "GOOGLE_API_KEY",
    "GOOGLE_GEMINI_BASE_URL", "GOOGLE_CLOUD_PROJECT",
    "COPILOT_HOME", "COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "QWEN_HOME",
]


def binary():
    """The tinylingo binary under test: $TINYLINGO_BIN (the runner sets it)."""
    path = os.environ.get("TINYLINGO_BIN")
    if not path or not os.access(path, os.X_OK):
        sys.exit("TINYLINGO_BIN must name the built tinylingo binary (tests/e2e/run sets it)")
    return path


def client_bin(name):
    """A client's executable from the pinned install (the runner sets E2E_CLIENTS)."""
    return str(Path(os.environ["E2E_CLIENTS"]) / "node_modules" / ".bin" / name)


def message_text(message):
    """The text of one chat-completions message: string content or its text parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def report(client, check, status, detail=""):
    """One result line for the runner's table."""
    detail = " ".join(str(detail).split())[:300]
    print(f"{client}\t{check}\t{status}\t{detail}", flush=True)


class Home:
    """A temporary HOME with tinylingo on PATH and nothing pointing elsewhere."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="tinylingo-e2e-"))
        self.bin_dir = self.root / ".local" / "bin"
        self.bin_dir.mkdir(parents=True)
        # The model's shell finds `tinylingo` by name, as it would after `cargo install`.
        os.symlink(binary(), self.bin_dir / "tinylingo")
        self.work = self.root / "project"
        self.work.mkdir()

    def env(self, **extra):
        env = {k: v for k, v in os.environ.items() if k not in FOREIGN_ENV}
        env["HOME"] = str(self.root)
        env["PATH"] = f"{self.bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"
        env.update({k: str(v) for k, v in extra.items()})
        return env

    def tinylingo(self, *args, check=True):
        out = subprocess.run([binary(), *args], env=self.env(), cwd=self.work,
                             capture_output=True, text=True, timeout=60)
        if check and out.returncode != 0:
            raise RuntimeError(f"tinylingo {' '.join(args)}: exit {out.returncode}: {out.stderr}")
        return out

    def glossary(self):
        path = self.root / ".config" / "tinylingo" / "glossary.json"
        return json.loads(path.read_text()) if path.exists() else {}

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def snapshot(root, skip=()):
    """Every file (bytes) and folder under `root`, for a byte-for-byte comparison. Paths that
    start with one of `skip` (relative, e.g. ".config/tinylingo") are left out."""
    root = Path(root)
    files, dirs = {}, set()
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if any(rel == s or rel.startswith(s.rstrip("/") + "/") for s in skip):
            continue
        if path.is_symlink():
            files[rel] = b"->" + os.readlink(path).encode()
        elif path.is_dir():
            dirs.add(rel)
        else:
            files[rel] = path.read_bytes()
    return files, dirs


def snapshot_diff(before, after):
    """A short description of what differs between two snapshots, or "" when nothing does."""
    (fa, da), (fb, db) = before, after
    out = []
    out += [f"gone: {p}" for p in sorted(set(fa) - set(fb))]
    out += [f"new: {p}" for p in sorted(set(fb) - set(fa))]
    out += [f"changed: {p}" for p in sorted(p for p in set(fa) & set(fb) if fa[p] != fb[p])]
    out += [f"dir gone: {p}" for p in sorted(da - db)]
    out += [f"dir new: {p}" for p in sorted(db - da)]
    return "; ".join(out)


class FakeModel:
    """A fake model server on 127.0.0.1 that logs every request and answers from a script.

    Subclasses implement `answer(handler, path, body)`: write the API's response (usually SSE)
    for the request. `self.requests` holds (method, path, headers, body_text) tuples in order.
    `self.replies` is the queue of what the model says next: a string is a text reply, and a
    dict {"shell": COMMAND} asks the client's shell tool to run COMMAND; once the queue is
    empty the model answers "ok".
    """

    def __init__(self):
        self.requests = []
        self.replies = []
        self.lock = threading.Lock()
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _handle(self, method):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                with model.lock:
                    model.requests.append((method, self.path, dict(self.headers), body))
                try:
                    model.answer(self, self.path, body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_POST(self):
                self._handle("POST")

            def do_GET(self):
                self._handle("GET")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next_reply(self):
        with self.lock:
            return self.replies.pop(0) if self.replies else "ok"

    def bodies(self):
        with self.lock:
            return [body for (_, _, _, body) in self.requests]

    def clear(self):
        with self.lock:
            self.requests.clear()

    def stop(self):
        self.server.shutdown()

    # Helpers for subclasses.
    @staticmethod
    def send_json(handler, obj, status=200):
        data = json.dumps(obj).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    @staticmethod
    def send_sse(handler, events):
        """`events`: (event_name or None, data object or string) pairs, sent as one SSE stream."""
        chunks = []
        for name, data in events:
            text = data if isinstance(data, str) else json.dumps(data)
            chunks.append((f"event: {name}\n" if name else "") + f"data: {text}\n\n")
        payload = "".join(chunks).encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)


# --- thread journal (check `journal entry`) --------------------------------------------------
# Every driver runs the same check through `check_journal`, giving it what is its client's own:
# how to run one exchange, the settings file and event of the after-response hook, and whether
# the hook may see no model (`unknown`).

JOURNAL_CHECK = "journal entry"

# One exchange with the journal on. The prompt has two lines and a code span but no ASCII
# space, since OpenCode's `run` wraps an argument holding a space in quotes. The answer is one
# sentence with the keyword 总结, which the summary rule keeps as it is.
JOURNAL_PROMPT = "智能抠图的边缘有锯齿，帮我看看\n日志里有`alpha=0`的像素。"
JOURNAL_REPLY = "总结：边缘锯齿来自 alpha 通道的抗锯齿设置。"
# The exchange after `tinylingo thread off`: it must add nothing.
JOURNAL_PROMPT_OFF = "阴影的边缘也有锯齿吗？"
JOURNAL_REPLY_OFF = "总结：阴影边缘的锯齿同样来自 alpha 通道。"
# The journal check runs the client (and so the hooks) with this local time zone, UTC+8 in
# POSIX form (no time zone database needed), so that an entry stamped in UTC, not local time,
# shows. "Today" is the local date in that zone.
JOURNAL_TZ = "CST-8"
JOURNAL_ZONE = datetime.timezone(datetime.timedelta(hours=8))
OURS = ".config/tinylingo/scripts/"
ENTRY_HEADING = re.compile(r"^## 交互记录 (\d+)[ \t]*$")
FIELD_LINE = re.compile(r"^\*\*([^*]+)\*\*: ?(.*)$")
FENCE_LINE = re.compile(r"^(`{3,})(.*)$")


def journal_now():
    return datetime.datetime.now(JOURNAL_ZONE)


@contextlib.contextmanager
def journal_zone():
    """Every process started meanwhile (client, hooks, tinylingo) sees TZ=JOURNAL_TZ."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = JOURNAL_TZ
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old


def journal_folder(home):
    return home.root / ".config" / "tinylingo" / "threads"


def journal_snapshot(home):
    """name → bytes of every file in the journal folder."""
    folder = journal_folder(home)
    if not folder.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def parse_journal(text):
    """A journal file → (title line, entries). An entry is a dict: n, fields (the `**key**: value`
    lines in order), prompt (the 用户请求 block's text, None without one), summary (the text
    under AI响应（总结）). Lines inside a fenced block are never headings."""
    lines = text.split("\n")
    entries, entry, section, fence, block = [], None, None, None, None
    for line in lines[1:]:
        if fence is not None:
            if re.fullmatch("`{%d,}[ \t]*" % len(fence), line):
                if section == "prompt" and entry is not None and entry["prompt"] is None:
                    entry["prompt"] = "\n".join(block)
                elif section == "summary" and entry is not None:
                    entry["summary"] += block + [line]
                fence = None
            else:
                block.append(line)
            continue
        m = ENTRY_HEADING.match(line)
        if m:
            entry = {"n": int(m.group(1)), "fields": [], "prompt": None, "info": None,
                     "summary": []}
            entries.append(entry)
            section = "fields"
            continue
        if entry is None:
            continue
        if line.startswith("### "):
            section = {"### 用户请求": "prompt", "### AI响应（总结）": "summary"}.get(
                line.rstrip(), "other")
            continue
        m = FENCE_LINE.match(line)
        if m:
            fence, block = m.group(1), []
            if section == "prompt" and entry["info"] is None:
                entry["info"] = m.group(2).strip()
            if section == "summary":
                entry["summary"].append(line)
            continue
        if section == "fields":
            m = FIELD_LINE.match(line)
            if m:
                entry["fields"].append((m.group(1), m.group(2)))
        elif section == "summary":
            entry["summary"].append(line)
    for entry in entries:
        entry["summary"] = "\n".join(entry["summary"]).strip()
    return (lines[0] if lines else ""), entries


def journal_problems(text, date, started, ended, prompt, summary):
    """What is wrong with a journal file that should hold exactly one entry, for `prompt` and
    `summary`, written between `started` and `ended`; and the entry's fields."""
    title, entries = parse_journal(text)
    problems = []
    if title != f"# Thread记录 - {date}":
        problems.append(f"first line {title[:40]!r}, not '# Thread记录 - {date}'")
    numbers = [e["n"] for e in entries]
    if numbers != [1]:
        problems.append(f"entries numbered {numbers}, expected exactly [1]")
    if not entries:
        return problems + [f"file: {text[:200]!r}"], {}
    entry = entries[0]
    fields = dict(entry["fields"])
    keys = [k for k, _ in entry["fields"]]
    if keys[:3] != ["时间", "模型", "角色"]:
        problems.append(f"fields {keys}, expected 时间, 模型, 角色 first")
    stamp = fields.get("时间", "")
    try:
        when = datetime.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S")
    except ValueError:
        problems.append(f"时间 {stamp!r} is not YYYY-MM-DD HH:MM:SS")
    else:
        low = started.replace(tzinfo=None, microsecond=0) - datetime.timedelta(seconds=5)
        high = ended.replace(tzinfo=None) + datetime.timedelta(seconds=5)
        if stamp[:10] != date:
            problems.append(f"时间 {stamp} is not today ({date}, TZ={JOURNAL_TZ})")
        elif not low <= when <= high:
            problems.append(f"时间 {stamp} is outside the exchange ({low:%H:%M:%S}-"
                            f"{high:%H:%M:%S} local, TZ={JOURNAL_TZ})")
    if not fields.get("模型", "").strip():
        problems.append("no 模型 line" if "模型" not in fields else "模型 is empty")
    if fields.get("角色") != "Developer":
        problems.append(f"角色 {fields.get('角色')!r}, expected the default 'Developer'")
    if entry["prompt"] is None:
        problems.append("no fenced 用户请求 block")
    elif entry["prompt"] != prompt:
        problems.append(f"用户请求 holds {entry['prompt'][:80]!r}, expected {prompt!r}")
    if entry["prompt"] is not None and entry["info"] != "text":
        problems.append(f"用户请求 fenced as {entry['info']!r}, expected 'text'")
    if entry["summary"] != summary:
        problems.append(f"summary {entry['summary'][:80]!r}, expected {summary!r}")
    return problems, fields


def model_problem(named, asked, source, unknown_ok=False):
    """'' when the 模型 line names the model the client asked for (a provider prefix such as
    `fake/m` allowed), or is `unknown` where that is allowed (`unknown_ok`: the client's hook
    events name no model), else why not. `source`: where the client's hook sees the model."""
    if named is None or not named.strip():
        return ""  # reported with the entry's other problems
    if named == "unknown" and unknown_ok:
        return ""
    if asked is None:
        return f"模型 {named!r}, but no request to the fake model showed which model it asked for"
    if named == asked or named.endswith("/" + asked):
        return ""
    if named == "unknown":
        return f"模型 unknown, though {source} names {asked!r}"
    return f"模型 {named!r}, but the client asked the fake model for {asked!r}"


def hook_commands(settings_path, event):
    """The commands of tinylingo's entries under hooks.<event> of a Claude/Codex/Gemini-style
    settings file or a Copilot hook file (plain JSON): [] when none; None when the file is missing or not JSON."""
    try:
        data = json.loads(settings_path.read_text())
    except (OSError, ValueError):
        return None
    groups = ((data.get("hooks") or {}).get(event) or []) if isinstance(data, dict) else []
    # Grouped (`{"hooks": [handler]}`) or flat (Copilot's: the handler itself).
    handlers = [h for g in groups if isinstance(g, dict) for h in g.get("hooks") or [g]]
    return [h.get("command", "") for h in handlers
            if isinstance(h, dict) and OURS in h.get("command", "")]


class Exchange(NamedTuple):
    """What one client run of the journal check showed; a driver's `exchange(prompt, reply)`
    runs the client once (the fake model answering `reply`) and returns it."""
    asked: object  # the model the client asked the fake server for (None: no request showed)
    answer_problem: str  # '' when the client exited 0 and gave `reply` as the answer, else why not
    prompt_problem: str  # '' when the client exited 0 and the prompt reached the model, else why not
    note: str = ""  # what the client showed, added when the journal file is missing


# The clients whose after-response hook the learning capture uses (src/platform: `captures`).
CAPTURING = ("claude", "codex", "gemini")


def check_journal(client, home, exchange, *, model_source, found_in, unknown_ok=None,
                  settings=None, event=None, prompt_event=None, plugin=None):
    """`journal entry`: with the journal on, one exchange gives exactly one entry (prompt
    verbatim, summary, local time, model); `thread off` takes the after-response hook out (the
    prompt hook stays) and the next exchange adds nothing. Returns (status, detail).

    `exchange(prompt, reply)` runs the client once and returns an `Exchange`. The 模型 line must
    name the model the client asked for; `model_source` says where the client's hook sees it
    (for the failure), `found_in` how the pass line says it was found. `unknown_ok`: why 模型
    `unknown` is acceptable for this client (said in the pass line), None when it is not.
    Hooks in a JSON settings file (Claude Code, Codex, Gemini): `settings` (its path), `event`
    (the after-response hook's event) and `prompt_event`. A plugin instead (OpenCode):
    `plugin`, the file that must stay after `thread off`. Every process the check starts sees
    TZ=JOURNAL_TZ."""
    with journal_zone():
        return journal_case(client, home, exchange, model_source, found_in, unknown_ok,
                            settings, event, prompt_event, plugin)


def journal_case(client, home, exchange, model_source, found_in, unknown_ok, settings, event,
                 prompt_event, plugin):
    home.tinylingo("install", client)
    # The journal follows `language`; these checks read the seed's Chinese headings.
    home.tinylingo("config", "language", "zh")
    on = home.tinylingo("thread", "on", check=False)
    if on.returncode != 0:
        return "fail", (f"tinylingo thread on: exit {on.returncode}: "
                        f"{(on.stderr or on.stdout).strip()[:200]}")
    problems = []
    if settings is not None and not hook_commands(settings, event):
        problems.append(f"after thread on, {settings} has no {event} hook of ours")

    started = journal_now()
    run = exchange(JOURNAL_PROMPT, JOURNAL_REPLY)
    ended = journal_now()
    if run.answer_problem:
        problems.append(f"the exchange: {run.answer_problem}")
    files = journal_snapshot(home)
    dates = list(dict.fromkeys(d.strftime("%Y-%m-%d") for d in (started, ended)))
    name = next((f"thread-{d}.md" for d in dates if f"thread-{d}.md" in files), None)
    fields = {}
    if name is None:
        problems.append(f"no thread-{dates[-1]}.md after the exchange (journal folder: "
                        f"{sorted(files) or 'empty or missing'})"
                        + (f"; {run.note}" if run.note else ""))
    else:
        found, fields = journal_problems(files[name].decode("utf-8", "replace"), name[7:17],
                                         started, ended, JOURNAL_PROMPT, JOURNAL_REPLY)
        problems += found
        wrong = model_problem(fields.get("模型"), run.asked, model_source,
                              unknown_ok=unknown_ok is not None)
        if wrong:
            problems.append(wrong)

    # Off: the after-response hook leaves the settings (the prompt hook, or the plugin, stays)
    # and nothing more is written.
    off = home.tinylingo("thread", "off", check=False)
    if off.returncode != 0:
        problems.append(f"tinylingo thread off: exit {off.returncode}: "
                        f"{(off.stderr or off.stdout).strip()[:120]}")
    # With learning capture on (`learn.capture`, the default), the after-response hook of a
    # client whose sessions `suggest` reads stays after `thread off`: it feeds the capture, and
    # writes no journal entry (the exchange below checks that nothing is written).
    capture = home.tinylingo("config", "learn.capture", check=False).stdout.strip() == "true"
    if settings is not None:
        left = hook_commands(settings, event)
        if left is None:
            problems.append(f"after thread off, {settings} is missing or not JSON")
        elif left and not (capture and client in CAPTURING):
            problems.append(f"after thread off, {settings.name} still has our {event} hook: "
                            f"{left[0]}")
        if not hook_commands(settings, prompt_event):
            problems.append(f"thread off also took out the {prompt_event} hook")
    if plugin is not None and not plugin.is_file():
        problems.append(f"thread off also took out {plugin.parent.name}/{plugin.name}")
    before = journal_snapshot(home)
    off_run = exchange(JOURNAL_PROMPT_OFF, JOURNAL_REPLY_OFF)
    if off_run.prompt_problem:
        problems.append(f"the exchange after thread off: {off_run.prompt_problem}")
    after = journal_snapshot(home)
    if after != before:
        changed = sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))
        problems.append(f"the exchange after thread off still wrote to {changed}")

    if problems:
        return "fail", " | ".join(problems).replace(str(home.root), "~")
    named = fields.get("模型")
    source = unknown_ok if named == "unknown" and unknown_ok is not None else found_in
    gone = f"{event} hook gone, " if event else ""
    return "pass", (f"one entry, 时间 {fields.get('时间')} (TZ={JOURNAL_TZ}), 模型 {named} (asked "
                    f"for {run.asked}; {source}), prompt verbatim, summary = the answer; thread "
                    f"off: {gone}next exchange wrote nothing")


def run_client(argv, env, cwd, timeout):
    """Runs a client once in its own process group, stdin /dev/null; returns the
    CompletedProcess, with returncode None when it outlived `timeout` (the group is killed)."""
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate(timeout=10)
        return subprocess.CompletedProcess(proc.args, None, out, err)
