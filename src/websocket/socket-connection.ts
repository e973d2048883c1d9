/**
 * One WebSocket as a connection of MCP-lite over stdio's messages: each text frame is one JSON-RPC
 * message (a binary frame is read as UTF-8 text), each message out one text frame. The connection
 * is the one `serveStdio()` drives (`src/stdio/server-connection.ts`); only the framing differs.
 *
 * @module
 */
import type { Host, ServerCore } from "../server/binding.ts";
import type { AcceptedSocket, SocketEvents } from "../server/upgrade.ts";
import type { McpOptions } from "../bindings/mcp/options.ts";
import type { MessageOut } from "../stdio/message-out.ts";
import { ServerConnection } from "../stdio/server-connection.ts";

const SENT: Promise<void> = Promise.resolve();

/** The connection of one socket, with the caller its upgrade was authenticated as. */
export function socketConnection(
  core: ServerCore,
  host: Host,
  options: { maxMessageBytes: number; mcp?: McpOptions },
): SocketEvents {
  let socket: AcceptedSocket | undefined;
  // A socket queues frames in send order: a message is handed over when sent.
  const out: MessageOut = { send: (message) => socket?.send(message), flush: () => SENT };
  const connection = new ServerConnection(core, out, { ...options, host, transport: "tcp" });
  return {
    open: (accepted) => void (socket = accepted),
    message: (data) => typeof data === "string" ? connection.receiveText(data) : connection.receive(data),
    close: (code) => {
      socket = undefined;
      // The peer left: its running calls abort (ctx.signal), and no answer is written.
      void connection.close(new Error(`the WebSocket closed (${code})`));
    },
  };
}
