/**
 * Connecting to the target: a URL (MCP-lite, MCP or Webtools; a bare origin is probed in that order)
 * or, after `--`, a command that starts a stdio server.
 *
 * @module
 */
import { Client, type ClientOptions } from "../client/client.ts";
import type { Reply, RequestContext, TaskInfo, Transport } from "../client/transport.ts";
import { AutoTransport, candidatesFor } from "../client/transports/auto.ts";
import { createMcpTransport } from "../client/transports/mcp.ts";
import { createMcpliteTransport, MCPLITE_BASE_PATH } from "../client/transports/mcplite.ts";
import { createWebtoolsTransport } from "../client/transports/webtools.ts";
import type { ClientAuth } from "../client/http.ts";
import type { CliArgs, StdioCommand } from "./args.ts";
import { UsageError } from "./exit-errors.ts";
import { SDK_VERSION } from "../internal/version.ts";

/** What {@link connect} needs besides the target: the client's handlers and timeouts. */
export interface ConnectOptions extends
  Pick<
    ClientOptions,
    | "onElicit"
    | "elicitationModes"
    | "onElicitationComplete"
    | "onResourceRequest"
    | "timeoutMs"
    | "onWarning"
    | "capabilities"
  > {
  /** Hears of each call that goes on in the background: an MCP-lite or Webtools promise, an MCP task. */
  onPending?: (note: string) => void;
  /** OAuth for `--login` (an HTTP target). */
  auth?: ClientAuth;
}

/**
 * Creates the client for the command line's target.
 *
 * @param args The command line.
 * @param options The elicitation handler and timeouts.
 * @returns The client (not yet connected: the first request discovers the wire).
 * @throws {UsageError} For a URL that does not parse.
 */
export async function connect(args: CliArgs, options: ConnectOptions): Promise<Client> {
  const { onPending, auth, ...handlers } = options;
  const clientOptions: ClientOptions = { ...handlers, clientInfo: { name: "mcplite-cli", version: SDK_VERSION } };
  // `app` reads resources, which only MCP serves: a bare origin is not probed for MCP-lite first.
  const wire = args.command === "app" && args.wire === "auto" ? { ...args, wire: "mcp" as const } : args;
  const transport = args.stdio
    ? await stdioTransport(args.stdio)
    : /^wss?:/i.test(args.url ?? "")
    ? await webSocketTransport(args)
    : httpTransport(wire, auth);
  return new Client(onPending ? watchPending(transport, onPending) : transport, clientOptions);
}

/** Wraps a transport to report the promises and tasks its replies carry (the client redeems and polls them). */
function watchPending(transport: Transport, onPending: (note: string) => void): Transport {
  const watch = (reply: Reply): Reply => {
    if (reply.kind === "promise") {
      onPending(`promise${reply.retryAfterMs === undefined ? "" : `, redeeming in ${reply.retryAfterMs} ms`}`);
    } else if (reply.kind === "task") {
      const { status, statusMessage } = reply.task;
      onPending(`task ${status}${statusMessage ? `: ${statusMessage}` : ""}`);
    }
    return reply;
  };
  return {
    get wire() {
      return transport.wire;
    },
    listTools: (ctx) => transport.listTools(ctx),
    callTool: async (call, ctx) => watch(await transport.callTool(call, ctx)),
    ...(transport.request
      ? {
        request: async (method: string, params: Record<string, unknown>, ctx: RequestContext) => {
          const reply = await transport.request!(method, params, ctx);
          if (method === "tasks/get" && reply.kind === "complete" && typeof reply.result.taskId === "string") {
            watch({ kind: "task", task: reply.result as unknown as TaskInfo });
          }
          return reply;
        },
      }
      : {}),
    ...(transport.discover ? { discover: (ctx: RequestContext) => transport.discover!(ctx) } : {}),
    ...(transport.close ? { close: () => transport.close!() } : {}),
  };
}

function httpTransport(args: CliArgs, auth: ClientAuth | undefined): Transport {
  let url: URL;
  try {
    url = new URL(args.url ?? "");
  } catch {
    throw new UsageError(`${JSON.stringify(args.url)} is not a URL (or put -- before a server command)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${url.protocol} URLs are not served over HTTP; give an http(s) URL, or -- <command>`);
  }
  const http = { ...(args.headers.length > 0 ? { headers: Object.fromEntries(args.headers) } : {}), auth };
  const bare = url.pathname.replace(/\/+$/, "") === "";
  switch (args.wire) {
    case "webtools":
      return createWebtoolsTransport(bare ? url.origin + "/webtools" : url, http);
    case "mcp":
      return createMcpTransport(bare ? url.origin + "/mcp" : url, http);
    case "mcp-lite":
      return createMcpliteTransport(bare ? url.origin + MCPLITE_BASE_PATH : url, http);
    default:
      if (/\/webtools(\/|$)/.test(url.pathname)) return createWebtoolsTransport(url, http);
      // A bare origin: MCP-lite, MCP, then Webtools at its default path.
      return new AutoTransport([
        ...candidatesFor(url, http),
        ...(bare ? [createWebtoolsTransport(url.origin + "/webtools", http)] : []),
      ]);
  }
}

/**
 * A `ws://` or `wss://` target: MCP-lite over a WebSocket (a bare origin gets `/mcp-lite/v1/ws`). A
 * token given as `-H "Authorization: Bearer …"` travels as the subprotocol, where the server reads it.
 */
async function webSocketTransport(args: CliArgs): Promise<Transport> {
  const { createWebSocketTransport } = await import("../client/transports/websocket.ts");
  let url: URL;
  try {
    url = new URL(args.url!);
  } catch {
    throw new UsageError(`${JSON.stringify(args.url)} is not a URL`);
  }
  if (args.wire !== "auto" && args.wire !== "mcp-lite") {
    throw new UsageError(`a WebSocket carries MCP-lite only, not ${args.wire}`);
  }
  if (url.pathname.replace(/\/+$/, "") === "") url.pathname = MCPLITE_BASE_PATH + "/ws";
  const authorization = args.headers.find(([name]) => name.toLowerCase() === "authorization")?.[1];
  const token = authorization === undefined ? undefined : /^Bearer +(\S+)$/i.exec(authorization)?.[1];
  if (authorization !== undefined && token === undefined) {
    throw new UsageError("over a WebSocket, only an Authorization: Bearer header can be sent (as the subprotocol)");
  }
  return createWebSocketTransport(url, { token });
}

async function stdioTransport(target: StdioCommand): Promise<Transport> {
  // Loaded only for stdio targets: HTTP use never loads process spawning.
  const { createStdioTransport } = await import("../client/transports/stdio.ts");
  return createStdioTransport({ command: target.command, args: target.args });
}
