/**
 * The floor plus the reads the specs make a server do: `request.url` and the header values our MCP path
 * checks. On a socket the runtimes build both lazily, so this row shows how much of the loopback gap the
 * checks themselves are, before any of our code runs.
 *
 * @module
 */
import type { Fetch } from "./common.ts";
import { floor } from "./floor.ts";

/**
 * The headers a 2026-07-28 `tools/call` is checked for: Origin (MCP 2025-11-25, Transports, Security
 * Warning), the body's length and type, Accept, the version and session headers, and `Mcp-Method` and
 * `Mcp-Name` against the body (MCP 2026-07-28, Transports).
 */
const CHECKED = [
  "origin",
  "content-length",
  "content-type",
  "accept",
  "mcp-protocol-version",
  "mcp-session-id",
  "mcp-method",
  "mcp-name",
];

/** Keeps the reads from being optimised away. */
let seen = 0;

/**
 * Creates the handler: reads the URL and each checked header once, then answers as the floor.
 *
 * @returns The handler.
 */
export function create(): Fetch {
  return (request) => {
    seen += request.url.length;
    const headers = request.headers;
    for (const name of CHECKED) seen += headers.get(name)?.length ?? 0;
    return floor(request);
  };
}
