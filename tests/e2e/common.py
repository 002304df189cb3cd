"""Shared pieces of the end-to-end suite: a temporary home, the tinylingo binary, fake model
servers on 127.0.0.1, byte-for-byte snapshots, and the result lines the runner tabulates.

Each client's driver (`claude.py`, `codex.py`, …) imports this module, runs its checks and
prints one line per check on stdout:  CLIENT<TAB>CHECK<TAB>pass|fail|skip<TAB>DETAIL.
`run` turns those lines into the table and the exit status.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

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

# Environment variables that would point tinylingo or an assistant somewhere other than HOME,
# or make a client talk to a real service.
FOREIGN_ENV = [
    "TINYLINGO_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME",
    "CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME",
    "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "GEMINI_API_KEY", "GOOGLE_API_KEY",
    "GOOGLE_GEMINI_BASE_URL", "GOOGLE_CLOUD_PROJECT",
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
