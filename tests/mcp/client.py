"""tinylingo's MCP server driven by a real client from the ecosystem: the official Python SDK's
stdio client (`mcp`, pinned in tests/mcp/run). Each check runs the real binary in a fresh HOME.

    TINYLINGO_BIN=… python3 tests/mcp/client.py      # from tests/mcp/run, in its venv

Prints one line per check, `ok NAME` or `FAIL NAME: why`; exit 1 when one failed.
"""

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BIN = os.environ["TINYLINGO_BIN"]
TOOLS = ["record", "list", "search", "match", "remove", "stats", "check", "thread_show",
         "suggest", "inbox"]


def env_for(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.pop("TINYLINGO_HOME", None)
    env.update(HOME=home, LANG="C.UTF-8")
    return env


def server(home):
    return StdioServerParameters(command=BIN, args=["mcp"], env=env_for(home), cwd=home)


def listed(home):
    """The glossary as the CLI lists it, term → explanation."""
    return {e["term"]: e["explanation"] for e in json.loads(cli(home, "list", "--json").stdout)}


def cli(home, *args):
    out = subprocess.run([BIN, *args], env=env_for(home), capture_output=True, text=True, cwd=home)
    return out


class Session:
    """A connected client session: `async with Session(home) as s`."""

    def __init__(self, home):
        self.home = home
        self._cm = self._connect()

    @contextlib.asynccontextmanager
    async def _connect(self):
        # The SDK's own nesting: entered and left by hand, a failing check hangs on exit.
        async with stdio_client(server(self.home)) as (read, write):
            async with ClientSession(read, write) as session:
                self._session = session
                self.init = await session.initialize()
                yield self

    async def __aenter__(self):
        return await self._cm.__aenter__()

    async def __aexit__(self, *exc):
        return await self._cm.__aexit__(*exc)

    async def call(self, tool, args):
        """(is_error, text) of a tool call."""
        r = await self._session.call_tool(tool, args)
        return bool(r.is_error), r.content[0].text

    async def ok(self, tool, args):
        error, text = await self.call(tool, args)
        assert not error, f"{tool} {args}: {text}"
        return json.loads(text)

    async def list_tools(self):
        return await self._session.list_tools()


async def initialize_and_list(home):
    async with Session(home) as s:
        assert s.init.server_info.name == "tinylingo", s.init
        assert s.init.capabilities.tools is not None
        tools = (await s.list_tools()).tools
        assert [t.name for t in tools] == TOOLS, [t.name for t in tools]
        record = next(t for t in tools if t.name == "record")
        assert record.input_schema["required"] == ["term", "explanation"], record.input_schema


async def every_tool(home):
    async with Session(home) as s:
        a = await s.ok("record", {"term": "联调", "explanation": "USE_SOURCE in localConfig.cmake"})
        assert a["status"] == "added", a
        assert cli(home, "list").stdout == "联调: USE_SOURCE in localConfig.cmake\n"
        a = await s.ok("list", {"limit": 10})
        assert a["entries"] == [{"term": "联调", "explanation": "USE_SOURCE in localConfig.cmake", "scope": "user"}], a
        a = await s.ok("match", {"message": "联调怎么开"})
        assert [e["term"] for e in a["exact"]] == ["联调"], a
        assert "USE_SOURCE" in a["injection"], a
        a = await s.ok("search", {"query": "use_source"})
        assert a["matches"] == 1 and a["entries"][0]["term"] == "联调", a
        a = await s.ok("stats", {})
        assert a["terms"] == 1 and a["per_term"][0]["term"] == "联调", a
        a = await s.ok("remove", {"search": "USE_SOURCE"})
        assert a["removed"] == [] and a["would_remove"] == 1 and a["code"], a
        assert "联调" in listed(home)
        a = await s.ok("remove", {"confirm": a["code"]})
        assert a["removed"] == ["联调"], a
        await s.ok("record", {"term": "联调", "explanation": "USE_SOURCE in localConfig.cmake"})
        a = await s.ok("thread_show", {"last": 3})
        assert a["entries"] == [] and a["journal"] == "off", a
        a = await s.ok("remove", {"terms": ["联调"]})
        assert a["removed"] == ["联调"], a
        assert cli(home, "list").stdout == ""


async def bad_arguments(home):
    async with Session(home) as s:
        for tool, args, says in [
            ("record", {"term": "a"}, "missing field `explanation`"),
            ("record", {"term": 5, "explanation": "b"}, "invalid type: integer `5`"),
            ("list", {"limit": "ten"}, "invalid type"),
            ("remove", {}, "give exactly one of terms"),
        ]:
            error, text = await s.call(tool, args)
            assert error, (tool, args, text)
            assert text.startswith("tinylingo: ") and says in text and "hint: " in text, text
        # The server lives on.
        assert (await s.ok("list", {}))["total"] == 0


async def result_of_100_kb(home):
    os.makedirs(f"{home}/.config/tinylingo")
    entries = {f"term{i:04}": f"explanation {i:04} " + "x" * 80 for i in range(1000)}
    with open(f"{home}/.config/tinylingo/glossary.json", "w") as f:
        json.dump(entries, f)
    async with Session(home) as s:
        a = await s.ok("list", {})
        assert a["mode"] == "file" and a["records"] == 1000, a
        with open(a["path"]) as f:
            text = f.read()
        assert len(text) == a["bytes"] > 100_000, (len(text), a["bytes"])
        assert a["preview"][0] == json.loads(text.splitlines()[0])


async def two_servers_at_once(home):
    async with Session(home) as a, Session(home) as b:
        async def writes(s, name):
            for i in range(25):
                await s.ok("record", {"term": f"{name}{i}", "explanation": "e"})
        await asyncio.gather(writes(a, "a"), writes(b, "b"))
    glossary = listed(home)
    assert len(glossary) == 50, len(glossary)


async def disconnect_mid_call(home):
    async with Session(home) as s:
        await s.ok("record", {"term": "kept", "explanation": "1"})
        # The call is sent; the client leaves without waiting for its answer.
        task = asyncio.ensure_future(s.call("record", {"term": "late", "explanation": "2"}))
        await asyncio.sleep(0)
        task.cancel()
    glossary = listed(home)
    assert glossary.get("kept") == "1" and glossary.get("late", "2") == "2", glossary
    # No server is left behind.
    left = subprocess.run(["pgrep", "-f", f"{BIN} mcp"], capture_output=True, text=True).stdout
    assert not any(pid.strip() for pid in left.splitlines() if _home_of(pid.strip()) == home), left


def _home_of(pid):
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = dict(e.split(b"=", 1) for e in f.read().split(b"\0") if b"=" in e)
        return env.get(b"HOME", b"").decode()
    except OSError:
        return None


CHECKS = [initialize_and_list, every_tool, bad_arguments, result_of_100_kb, two_servers_at_once,
          disconnect_mid_call]


def main():
    failed = 0
    for check in CHECKS:
        home = tempfile.mkdtemp(prefix="tinylingo-mcp-")
        try:
            asyncio.run(asyncio.wait_for(check(home), 60))
            print(f"ok {check.__name__}")
        except BaseException as e:  # noqa: BLE001 - every failure is reported the same way
            failed += 1
            # The SDK's task groups wrap the failure: show the innermost one.
            while isinstance(e, BaseExceptionGroup) and e.exceptions:
                e = e.exceptions[0]
            why = "".join(traceback.format_exception_only(type(e), e)).strip()
            print(f"FAIL {check.__name__}: {why}")
            traceback.print_exc(file=sys.stderr)
        finally:
            shutil.rmtree(home, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
