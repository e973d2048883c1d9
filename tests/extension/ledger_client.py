"""Drives the `org.example/ledger` extension (tests/extension/ledger-server.ts) with the Python MCP SDK's client.

Usage: ledger_client.py SCENARIOS, a JSON list of {"name", "mode": "legacy" | "2026-07-28", "id", and "url"
(Streamable HTTP) or "command": [program, *args] (stdio)}. Each scenario connects declaring the extension (a
`ClientExtension` with settings and a `NotificationBinding` for `org.example/ledger/changed`), reads the server's
advertisement, sends `org.example/ledger/get` with `session.send_request`, waits for the notification, sends the
notification `org.example/ledger/touched` and reads it back with `org.example/ledger/touches`, and sends invalid
params. Prints one JSON object: each scenario's name to what it saw, or to {"error": "..."}.
"""

import json
import sys
import traceback
from typing import Any

import anyio
from pydantic import BaseModel

from mcp import Client, types
from mcp.client.extension import ClientExtension, NotificationBinding
from mcp.client.stdio import StdioServerParameters

LEDGER = "org.example/ledger"
TIMEOUT_SECONDS = 30


class Changed(BaseModel):
    id: str
    balance: int


class Entry(BaseModel):
    id: str
    balance: int
    declared: dict[str, Any] | None = None


class Touches(BaseModel):
    touched: list[str]


class Ledger(ClientExtension):
    identifier = LEDGER

    def __init__(self) -> None:
        self.changed: list[dict[str, Any]] = []
        self.heard = anyio.Event()

    def settings(self) -> dict[str, Any]:
        return {"currency": "EUR"}

    def notifications(self):
        async def on_changed(params: Changed) -> None:
            self.changed.append(params.model_dump())
            self.heard.set()

        return [NotificationBinding(method=f"{LEDGER}/changed", params_type=Changed, handler=on_changed)]


def request(method: str, params: dict[str, Any]):
    return types.Request[dict[str, Any], str](method=method, params=params)


async def drive(scenario):
    command = scenario.get("command")
    target = StdioServerParameters(command=command[0], args=command[1:]) if command else scenario["url"]
    ledger = Ledger()
    client = Client(target, mode=scenario["mode"], extensions=[ledger])
    async with client:
        session = client.session
        entry = await session.send_request(request(f"{LEDGER}/get", {"id": scenario["id"]}), Entry)
        with anyio.fail_after(10):
            await ledger.heard.wait()
        await session.send_notification(
            types.Notification[dict[str, Any], str](method=f"{LEDGER}/touched", params={"id": scenario["id"]})
        )
        touches = None
        for _ in range(50):  # the notification is handled after its 202: read it back until it shows
            touches = await session.send_request(request(f"{LEDGER}/touches", {}), Touches)
            if scenario["id"] in touches.touched:
                break
            await anyio.sleep(0.05)
        try:
            await session.send_request(request(f"{LEDGER}/get", {"id": 7}), Entry)
            invalid = None
        except Exception as error:  # an MCPError carrying the JSON-RPC code
            invalid = getattr(getattr(error, "error", None), "code", None) or str(error)
        # A client pinned to 2026-07-28 adopts a discover result of its own making: ask the server.
        pinned = scenario["mode"] != "legacy"
        raw = await session.send_discover(scenario["mode"]) if pinned else None
        capabilities = types.DiscoverResult.model_validate(raw).capabilities if pinned else client.server_capabilities
        return {
            "protocolVersion": client.protocol_version,
            "advertised": (capabilities.extensions or {}).get(LEDGER) if capabilities else None,
            "entry": entry.model_dump(),
            "changed": ledger.changed,
            "touched": touches.touched if touches else None,
            "invalid": invalid,
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
