/**
 * The carriers of one stdio or WebSocket connection, assembled for `serveStdio()` and `webSocketBinding()`:
 * MCP's (`src/bindings/mcp/socket-carrier.ts`) and MCP-lite's (`src/bindings/mcplite/socket-carrier.ts`), sharing
 * MCP's table of running requests so that one `notifications/cancelled` reaches both (MCP 2025-11-25, Cancellation).
 *
 * @module
 */
import * as longRunning from "../jobs/mod.ts";
import type { Host, ServerCore } from "../server/mod.ts";
import { createMcpContext } from "../bindings/mcp/handler.ts";
import { type McpOptions, resolveMcpSettings } from "../bindings/mcp/mcp-options.ts";
import { McpSocketCarrier, type SocketOut } from "../bindings/mcp/socket-carrier.ts";
import { LiteSocketCarrier } from "../bindings/mcplite/socket-carrier.ts";

export type { McpOptions };

/**
 * Builds the carriers of one connection: what `ServerConnection` (`src/stdio/server-connection.ts`)
 * takes as its `carriers`; the connection defines what it needs of them, so it imports neither binding.
 */
export type SocketCarriers = (
  core: ServerCore,
  out: SocketOut,
  peer: { readonly host: Host; readonly piped: boolean; readonly headers?: Headers },
) => { readonly mcp: McpSocketCarrier; readonly lite: LiteSocketCarrier };

/**
 * The carriers of each connection of a stdio server or a WebSocket binding.
 *
 * @param mcp The MCP options (page size, caching hints, hold).
 * @returns What builds one connection's carriers.
 */
export function socketCarriers(mcp: McpOptions = {}): SocketCarriers {
  return (core, out, { host, piped, headers }) => {
    const mcpCarrier = new McpSocketCarrier(createMcpContext(core, resolveMcpSettings(mcp)), out, host, piped, headers);
    const lite = new LiteSocketCarrier(
      core,
      out,
      (id) => mcpCarrier.track(id),
      host,
      longRunning.holdFor(core, "mcp-lite"), // mcpLiteBinding({ holdMs }), else the server's
      piped,
      headers,
    );
    return { mcp: mcpCarrier, lite };
  };
}
