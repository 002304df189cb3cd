"""Renders the labeled cases (cases/<split>.jsonl for tuned, heldout, fresh and fresh2) as
sessions in the real formats of Claude Code, Codex CLI, Gemini CLI and OpenCode, under
corpus/<split>/ laid out as a home folder (.claude/projects/…, .codex/sessions/…, .gemini/tmp/…,
.local/share/opencode/). `fresh` is a second held-out part, written blind after the rules were
tuned on `heldout`: nobody tunes to it. `fresh2` is a third, written blind in the same way while
the rules were being improved against `fresh`, to measure that work.

Each case is one session: the assistant's question (when the case has one), the user's turn
(with a tool call and its output when the case has `tool`), the assistant's reply, and the
next turn of the same session when the case has `next` (the user's, then the reply). The records
copy the shape of those the pinned clients wrote in the end-to-end runs
(tests/fixtures/sessions/): the same record types, fields and injected messages.

    python3 tests/learning/make_corpus.py            # rewrite corpus/ from cases/
    python3 tests/learning/make_corpus.py --bench DIR N KB
        # N sessions of about KB kilobytes each (cases cycled, padded with tool output),
        # spread over the four formats: the input of benches/suggest.sh

Standard library only. The output is deterministic (fixed ids and times).
"""

import json
import os
import shutil
import sqlite3
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
CWD = "/home/user/project"
INJECTED = ("<system-reminder>\n[TinyLingo]\n- 智能抠图: ProjectA 背景移除模块，类名 BGRemover，"
            "位于 src/modules/bgremove/\n</system-reminder>")


def uid(*parts):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join(map(str, parts))))


def stamp(n, k):
    return f"2026-11-{1 + n % 28:02d}T{8 + k // 60 % 12:02d}:{k % 60:02d}:{n % 60:02d}.000Z"


def j(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


# ---- Claude Code -------------------------------------------------------------------------------

def claude(case, n, pad=""):
    sid = uid("claude", n)
    lines = []
    parent = None

    def rec(kind, body, k):
        nonlocal parent
        me = uid("claude", n, k)
        r = {"parentUuid": parent, "isSidechain": False, **body, "type": kind, "uuid": me,
             "timestamp": stamp(n, k), "userType": "external", "entrypoint": "sdk-cli",
             "cwd": CWD, "sessionId": sid, "version": "2.1.197", "gitBranch": "HEAD"}
        parent = me
        lines.append(j(r))

    def assistant(text, k):
        rec("assistant", {"message": {"id": f"msg_{n}_{k}", "type": "message", "role": "assistant",
                                      "model": "claude-opus-4-8",
                                      "content": [{"type": "text", "text": text}],
                                      "stop_reason": "end_turn", "stop_sequence": None}}, k)

    def user(text, k):
        lines.append(j({"type": "queue-operation", "operation": "enqueue",
                        "timestamp": stamp(n, k), "sessionId": sid, "content": text}))
        rec("user", {"promptId": uid("p", n, k), "message": {"role": "user", "content": text},
                     "permissionMode": "default", "promptSource": "sdk"}, k)
        rec("attachment", {"attachment": {"type": "hook_additional_context", "content": [INJECTED],
                                          "hookName": "UserPromptSubmit",
                                          "hookEvent": "UserPromptSubmit"}}, k + 100)

    if case.get("before"):
        user("看一下这个项目" if case["lang"] == "zh" else "have a look at this project", 0)
        assistant(case["before"], 1)
    user(case["user"], 2)
    if case.get("tool") or pad:
        tool_id = f"toolu_{n}"
        rec("assistant", {"message": {"id": f"msg_{n}_t", "type": "message", "role": "assistant",
                                      "model": "claude-opus-4-8",
                                      "content": [{"type": "tool_use", "id": tool_id, "name": "Bash",
                                                   "input": {"command": "cat notes.txt"}}]}}, 3)
        output = (case.get("tool") or "") + pad
        rec("user", {"message": {"role": "user", "content": [
            {"tool_use_id": tool_id, "type": "tool_result", "content": output, "is_error": False}]},
            "toolUseResult": {"stdout": output, "stderr": "", "interrupted": False}}, 4)
    assistant(case["after"], 5)
    if case.get("next"):
        user(case["next"]["user"], 6)
        assistant(case["next"]["after"], 7)
    last = (case.get("next") or case)["user"]
    lines.append(j({"type": "last-prompt", "lastPrompt": last, "sessionId": sid}))
    return f".claude/projects/-home-user-project/{sid}.jsonl", lines


# ---- Codex CLI ---------------------------------------------------------------------------------

def codex(case, n, pad=""):
    sid = uid("codex", n)
    lines = [j({"timestamp": stamp(n, 0), "type": "session_meta", "payload": {
        "session_id": sid, "id": sid, "timestamp": stamp(n, 0), "cwd": CWD,
        "originator": "codex_exec", "cli_version": "0.169.0", "source": "exec"}})]
    k = 0

    def item(payload):
        nonlocal k
        k += 1
        lines.append(j({"timestamp": stamp(n, k), "ordinal": k, "type": "response_item",
                        "payload": payload}))

    def message(role, text, kinds):
        meta = {"turn_id": uid("turn", n), "content_item_kinds": kinds}
        part = "output_text" if role == "assistant" else "input_text"
        item({"type": "message", "id": f"msg_{n}_{k}", "role": role,
              "content": [{"type": part, "text": text}],
              "internal_chat_message_metadata_passthrough": meta})

    def user(text):
        message("user", "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nwe call the build bot rex\n"
                "</INSTRUCTIONS>\n<environment_context>\n  <cwd>" + CWD + "</cwd>\n"
                "</environment_context>", ["agents_md.instructions",
                                           "environments.environment_context"])
        message("user", text, ["user.text"])
        message("developer", INJECTED, ["hooks.additional_context"])
        lines.append(j({"timestamp": stamp(n, k), "type": "event_msg", "payload": {
            "type": "item_completed", "item": {"type": "UserMessage", "id": uid("um", n, k),
                                               "content": [{"type": "text", "text": text}]}}}))

    if case.get("before"):
        user("看一下这个项目" if case["lang"] == "zh" else "have a look at this project")
        message("assistant", case["before"], ["unknown"])
    user(case["user"])
    if case.get("tool") or pad:
        item({"type": "function_call", "name": "exec_command", "call_id": f"call_{n}",
              "arguments": j({"cmd": "cat notes.txt"})})
        item({"type": "function_call_output", "call_id": f"call_{n}",
              "output": (case.get("tool") or "") + pad})
    message("assistant", case["after"], ["unknown"])
    if case.get("next"):
        user(case["next"]["user"])
        message("assistant", case["next"]["after"], ["unknown"])
    day = stamp(n, 0)[:10].replace("-", "/")
    return f".codex/sessions/{day}/rollout-{stamp(n, 0)[:19].replace(':', '-')}-{sid}.jsonl", lines


# ---- Gemini CLI --------------------------------------------------------------------------------

def gemini(case, n, pad=""):
    sid = uid("gemini", n)
    lines = [j({"sessionId": sid, "projectHash": "0" * 64, "startTime": stamp(n, 0),
                "lastUpdated": stamp(n, 0), "kind": "main"}),
             j({"$set": {"messages": [{"id": uid("ctx", n), "timestamp": stamp(n, 0),
                                       "type": "user", "content": [{"text":
                                       "<session_context>\nThis is the Gemini CLI. We call the "
                                       "workspace root home.\n</session_context>"}]}]}})]
    k = 0

    def rec(body):
        nonlocal k
        k += 1
        lines.append(j({"id": uid("g", n, k), "timestamp": stamp(n, k), **body}))
        lines.append(j({"$set": {"lastUpdated": stamp(n, k)}}))

    def user(text):
        rec({"type": "user", "content": [{"text": text}, {"text": "<hook_context>"
             + INJECTED.replace("<system-reminder>\n", "").replace("\n</system-reminder>", "")
             + "</hook_context>"}], "displayContent": [{"text": text}]})

    if case.get("before"):
        user("看一下这个项目" if case["lang"] == "zh" else "have a look at this project")
        rec({"type": "gemini", "content": case["before"], "model": "gemini-3.8-flash"})
    user(case["user"])
    if case.get("tool") or pad:
        rec({"type": "gemini", "content": "", "model": "gemini-3.8-flash", "toolCalls": [
            {"id": f"call_{n}", "name": "run_shell_command", "args": {"command": "cat notes.txt"},
             "status": "success", "result": [{"functionResponse": {
                 "id": f"call_{n}", "name": "run_shell_command",
                 "response": {"output": (case.get("tool") or "") + pad}}}]}]})
        rec({"type": "user", "content": [{"functionResponse": {
            "id": f"call_{n}", "name": "run_shell_command",
            "response": {"output": (case.get("tool") or "") + pad}}}]})
    rec({"type": "gemini", "content": case["after"], "model": "gemini-3.8-flash"})
    if case.get("next"):
        user(case["next"]["user"])
        rec({"type": "gemini", "content": case["next"]["after"], "model": "gemini-3.8-flash"})
    return f".gemini/tmp/project/chats/session-{stamp(n, 0)[:16].replace(':', '-')}-{sid[:8]}.jsonl", lines


# ---- OpenCode ----------------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text,
  slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
"""


def opencode(db, case, n, pad=""):
    sid = f"ses_{uid('oc', n)[:24]}"
    t = 1795640000000 + n * 100000
    db.execute("INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?)",
               (sid, "global", None, f"s{n}", CWD, "t", "1.18.33", t, t))
    k = 0

    def msg(role, parts):
        nonlocal k
        k += 1
        mid = f"msg_{n:06d}_{k:03d}"
        data = {"role": role, "time": {"created": t + k}}
        db.execute("INSERT INTO message VALUES (?,?,?,?,?)", (mid, sid, t + k, t + k, j(data)))
        for i, p in enumerate(parts):
            db.execute("INSERT INTO part VALUES (?,?,?,?,?,?)",
                       (f"prt_{n:06d}_{k:03d}_{i}", mid, sid, t + k * 10 + i, t + k * 10 + i, j(p)))

    def user(text):
        msg("user", [{"type": "text", "text": text},
                     {"type": "text", "text": INJECTED, "synthetic": True}])

    if case.get("before"):
        user("看一下这个项目" if case["lang"] == "zh" else "have a look at this project")
        msg("assistant", [{"type": "step-start"}, {"type": "text", "text": case["before"]}])
    user(case["user"])
    parts = [{"type": "step-start"}]
    if case.get("tool") or pad:
        parts.append({"type": "tool", "tool": "bash", "callID": f"call_{n}", "state": {
            "status": "completed", "input": {"command": "cat notes.txt"},
            "output": (case.get("tool") or "") + pad}})
    parts.append({"type": "text", "text": case["after"]})
    msg("assistant", parts)
    if case.get("next"):
        user(case["next"]["user"])
        msg("assistant", [{"type": "step-start"}, {"type": "text", "text": case["next"]["after"]}])


# ---- writing -------------------------------------------------------------------------------------

def write(root, cases, pad_kb=0):
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    dbdir = root / ".local/share/opencode"
    dbdir.mkdir(parents=True)
    db = sqlite3.connect(dbdir / "opencode.db")
    db.executescript(SCHEMA)
    filler = ("2026-11-20 10:00:00 INFO worker: processed batch ok, 128 items, 0 errors\n"
              * (pad_kb * 1024 // 72 + 1)) if pad_kb else ""
    for n, case in enumerate(cases):
        render = (claude, codex, gemini, None)[n % 4] if pad_kb else None
        for fmt in ([render] if pad_kb else [claude, codex, gemini, None]):
            if fmt is None:
                opencode(db, case, n, filler)
                continue
            rel, lines = fmt(case, n, filler)
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(lines) + "\n")
    db.commit()
    db.close()


def load(name):
    cases = [json.loads(l) for l in (HERE / "cases" / f"{name}.jsonl").read_text().splitlines() if l]
    for case in cases:
        # Later parts give the tool call as {"command", "output"}: only its output is rendered
        # (as the output of `cat notes.txt`), which is what a rule could mistake for the user's.
        if isinstance(case.get("tool"), dict):
            case["tool"] = case["tool"].get("output") or ""
    return cases


def main():
    if sys.argv[1:2] == ["--bench"]:
        root, n, kb = Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        cases = load("tuned") + load("heldout")
        write(root, [cases[i % len(cases)] for i in range(n)], pad_kb=kb)
        return
    for split in ("tuned", "heldout", "fresh", "fresh2", "tuned2", "fresh3", "fresh4", "fresh5", "fresh6",
                  "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12",
                  "fresh13", "fresh14", "fresh15", "fresh16", "fresh17", "fresh18", "tuned3"):
        write(HERE / "corpus" / split, load(split))


if __name__ == "__main__":
    main()
