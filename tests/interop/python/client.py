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


async def with_mcp(scenario):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    command = scenario.get("command")
    target = StdioServerParameters(command=command[0], args=command[1:]) if command else scenario["url"]
    async with Client(target, mode=scenario["mode"]) as client:
        tools = await client.list_tools()
        return {
            "protocolVersion": client.protocol_version,
            "tools": [tool.name for tool in tools.tools],
            "add": wire(await client.call_tool("add", {"a": 2, "b": 3})),
            "fails": wire(await client.call_tool("fails", {})),
            "revision": wire(await client.call_tool("revision", {})),
        }


async def with_fastmcp(scenario):
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport

    command = scenario.get("command")
    target = StdioTransport(command=command[0], args=command[1:]) if command else scenario["url"]
    async with Client(target, mode=scenario["mode"]) as client:
        tools = await client.list_tools()
        return {
            "protocolVersion": client.protocol_version,
            "tools": [tool.name for tool in tools],
            "add": wire(await client.call_tool_mcp("add", {"a": 2, "b": 3})),
            "fails": wire(await client.call_tool_mcp("fails", {})),
            "revision": wire(await client.call_tool_mcp("revision", {})),
        }


async def main():
    seen = {}
    for scenario in json.loads(sys.argv[1]):
        drive = with_mcp if scenario["library"] == "mcp" else with_fastmcp
        try:
            with anyio.fail_after(TIMEOUT_SECONDS):
                seen[scenario["name"]] = await drive(scenario)
        except Exception as error:  # reported to the test, which fails naming it
            traceback.print_exc()
            seen[scenario["name"]] = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps(seen))


anyio.run(main)
