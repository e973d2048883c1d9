/**
 * One WebSocket as a connection of MCP-lite over stdio's messages: one JSON-RPC message per text frame (a binary frame
 * read as UTF-8), driven like `serveStdio()`'s (`src/stdio/server-connection.ts`); only the framing differs. Output is
 * bounded (WHATWG WebSockets, `bufferedAmount`): over half of `maxBufferedBytes` no new message starts
 * (`inbound-flow.ts`); past it the socket is closed with 1008 (RFC 6455 §7.4.1) and dropped where the runtime can, its
 * calls abort and what it queued is released. Why: docs/guides/websocket.md.
 *
 * @module
 */
import type { Host, ServerCore } from "../server/mod.ts";
import type { AcceptedSocket, SocketEvents } from "../runtime/socket-events.ts";
import type { MessageOut } from "../stdio/message-out.ts";
import { type CarriersOf, ServerConnection } from "../stdio/server-connection.ts";
import { InboundFlow } from "./inbound-flow.ts";

const SENT: Promise<void> = Promise.resolve();

/** RFC 6455 §7.4.1: "a message that violates its policy". */
const POLICY_VIOLATION = 1008;

/** Options of {@link socketConnection}. */
export interface SocketConnectionOptions {
  /** The longest message accepted, in bytes. */
  readonly maxMessageBytes: number;
  /** The most bytes queued for a peer that does not read; past it the socket is closed with 1008. */
  readonly maxBufferedBytes: number;
  /** Builds the connection's MCP and MCP-lite carriers. */
  readonly carriers: CarriersOf;
}

/** The connection of one socket, with the caller and the headers its upgrade was authenticated with. */
export function socketConnection(
  core: ServerCore,
  host: Host,
  headers: Headers,
  options: SocketConnectionOptions,
): SocketEvents {
  let socket: AcceptedSocket | undefined;
  let flow: InboundFlow | undefined;
  /** Ends a peer over its limit: 1008, then the connection dropped (what was queued for it is freed). */
  const overflow = () => {
    const overflowing = socket;
    if (overflowing === undefined) return;
    end(`the WebSocket's reader fell ${options.maxBufferedBytes} bytes behind`);
    overflowing.close(POLICY_VIOLATION, "the client does not read its messages");
    overflowing.terminate?.();
  };
  const out: MessageOut = {
    send(message) {
      if (socket === undefined) return;
      socket.send(message);
      if (socket.bufferedAmount > options.maxBufferedBytes) overflow();
    },
    // A socket queues frames in send order: a message is handed over when sent.
    flush: () => SENT,
  };
  const connection = new ServerConnection(core, out, { ...options, host, headers, transport: "tcp" });
  /** Forgets the socket and aborts its running calls (ctx.signal); no answer is written after. */
  const end = (reason: string) => {
    if (socket === undefined) return;
    socket = undefined;
    flow?.end();
    flow = undefined;
    void connection.close(new Error(reason));
  };
  const dispatch = (data: string | Uint8Array) => {
    if (typeof data === "string") connection.receiveText(data);
    else connection.receive(data);
  };
  const nextWave = () => connection.nextWave();
  return {
    open: (accepted) => {
      socket = accepted;
      const { maxBufferedBytes } = options;
      flow = new InboundFlow(accepted, maxBufferedBytes / 2, maxBufferedBytes, dispatch, overflow, nextWave);
    },
    message: (data) => flow?.push(data), // none once closing: no more calls
    close: (code) => end(`the WebSocket closed (${code})`),
  };
}
