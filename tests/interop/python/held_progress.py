"""Calls a long-running tool our server holds, with a progress callback, as a user of the Python MCP SDK (`mcp`)
or FastMCP's client would, over Streamable HTTP, in each client's legacy mode (2025-11-25) and pinned to
2026-07-28.

Usage: held_progress.py URL. Prints one JSON object per line, flushed as it goes: {"start": name} before each
call, which it makes once the test answers with a line on stdin (the test has made the call's gate by then),
{"saw": step} for each progress notification (the test lets the work report the next step once the client saw this
one), then {"name", "progress": [[progress, total, message], ...], "result"} or {"name", "error"}.
"""

import json
import sys
import traceback

import anyio

TIMEOUT_SECONDS = 100  # three steps, each let go after 30 s if never seen (tests/helpers/seen-steps.ts)
SCENARIOS = [
    (library, mode) for library in ("mcp", "fastmcp") for mode in ("legacy", "2026-07-28")
]


def say(message):
    print(json.dumps(message), flush=True)


async def call(library, mode, url, on_progress):
    """Calls `crunch` with the library's progress callback; returns the result as it travelled."""
    if library == "mcp":
        from mcp import Client

        async with Client(url, mode=mode) as client:
            result = await client.call_tool("crunch", {}, progress_callback=on_progress)
    else:
        from fastmcp import Client

        async with Client(url, mode=mode) as client:
            result = await client.call_tool_mcp("crunch", {}, progress_handler=on_progress)
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main():
    url = sys.argv[1]
    for library, mode in SCENARIOS:
        name = f"{library}, {mode}"
        progress = []

        async def on_progress(value, total, message):
            progress.append([value, total, message])
            say({"saw": value})

        say({"start": name})
        await anyio.to_thread.run_sync(sys.stdin.readline)  # the test's go-ahead
        try:
            with anyio.fail_after(TIMEOUT_SECONDS):
                result = await call(library, mode, url, on_progress)
            say({"name": name, "progress": progress, "result": result})
        except Exception as error:  # reported to the test, which fails naming it
            traceback.print_exc()
            say({"name": name, "error": f"{type(error).__name__}: {error}"})


anyio.run(main)
