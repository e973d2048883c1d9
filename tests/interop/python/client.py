"""Drives our server with the Python MCP SDK (`mcp`) or FastMCP's client, as a user of either would.

Usage: client.py SCENARIOS, a JSON list of {"name", "library": "mcp" | "fastmcp", "mode": "legacy" |
"auto" | "2026-07-28", and "url" (Streamable HTTP) or "command": [program, *args] (stdio)}. Each
scenario connects, lists the tools, calls `add` (structured output), `fails` (an isError result) and
`revision` (the revision the server read), and closes. Prints one JSON object: each scenario's name to
what it saw, or to {"error": "..."}; the test asserts on it.
"""

import json
import sys
import traceback

import anyio

TIMEOUT_SECONDS = 30


def wire(result):
    """A CallToolResult as it travelled (camelCase keys, no nulls)."""
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


def open_client(scenario):
    """The scenario's client (not yet entered), how to list its tools' names, and how to call a tool."""
    command = scenario.get("command")
    if scenario["library"] == "mcp":
        from mcp import Client
        from mcp.client.stdio import StdioServerParameters

        target = StdioServerParameters(command=command[0], args=command[1:]) if command else scenario["url"]
        client = Client(target, mode=scenario["mode"])

        async def names():
            return [tool.name for tool in (await client.list_tools()).tools]

        return client, names, client.call_tool
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport

    target = StdioTransport(command=command[0], args=command[1:]) if command else scenario["url"]
    client = Client(target, mode=scenario["mode"])

    async def names():
        return [tool.name for tool in await client.list_tools()]

    return client, names, client.call_tool_mcp  # the result as it came, isError and all


async def drive(scenario):
    client, names, call = open_client(scenario)
    async with client:
        return {
            "protocolVersion": client.protocol_version,
            "tools": await names(),
            "add": wire(await call("add", {"a": 2, "b": 3})),
            "fails": wire(await call("fails", {})),
            "revision": wire(await call("revision", {})),
        }


async def main():
    seen = {}
    for scenario in json.loads(sys.argv[1]):
        try:
            with anyio.fail_after(TIMEOUT_SECONDS):
                seen[scenario["name"]] = await drive(scenario)
        except Exception as error:  # reported to the test, which fails naming it
            traceback.print_exc()
            seen[scenario["name"]] = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps(seen))


anyio.run(main)
