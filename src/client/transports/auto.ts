/**
 * Transport discovery: given a URL, find the wire the server speaks. A URL that names an endpoint
 * (`…/mcp-lite/v1`, `…/mcp`) is used as it is; a bare origin is tried as MCP-lite at
 * `/mcp-lite/v1`, then MCP at `/mcp`, then MCP at the origin itself. The first that lists its tools
 * wins, once per client. A method the winner does not carry (MCP-lite has tools, and by the README's
 * extensions prompts and resources: skills, tasks and `server/discover` are MCP's) goes to the first later
 * candidate that does and answers, found once as well.
 *
 * @module
 */
import { clientError, isTransportError, transportError } from "../errors.ts";
import { McpliteError } from "../../errors/error.ts";
import { quietContext } from "../quiet-context.ts";
import type { Reply, RequestContext, ToolCallRequest, ToolListing, Transport } from "../transport.ts";
import { createMcpTransport, type McpTransportOptions } from "./mcp.ts";
import { createMcpliteTransport, MCPLITE_BASE_PATH } from "./mcplite.ts";

/**
 * Creates a transport that discovers the server's wire on first use.
 *
 * @param url The server URL: an origin, or an MCP-lite base or MCP endpoint.
 * @param options The fetch function, extra headers and the MCP revision.
 * @returns The transport.
 */
export function createAutoTransport(url: string | URL, options: McpTransportOptions = {}): Transport {
  return new AutoTransport(candidatesFor(new URL(url), options));
}

/**
 * Lists the transports to try for a URL, most likely first.
 *
 * @param url The URL.
 * @param options The transport options.
 * @returns The candidates.
 */
export function candidatesFor(url: URL, options: McpTransportOptions): Transport[] {
  const path = url.pathname.replace(/\/+$/, "");
  const href = url.href.replace(/\/+$/, "");
  const origin = `${url.origin}${url.search}`;
  if (/\/mcp-lite(\/|$)/.test(path)) return [createMcpliteTransport(href, options)];
  if (path.endsWith("/mcp")) return [createMcpTransport(href, options)];
  if (path === "") {
    return [
      createMcpliteTransport(url.origin + MCPLITE_BASE_PATH, options),
      createMcpTransport(url.origin + "/mcp", options),
      createMcpTransport(origin, options),
    ];
  }
  // A server under a base path (`createServer({ basePath: "/api" })`): its bindings' default paths
  // below it, after the URL itself.
  return [
    createMcpTransport(href, options),
    createMcpliteTransport(href, options),
    createMcpliteTransport(href + MCPLITE_BASE_PATH, options),
    createMcpTransport(href + "/mcp", options),
  ];
}

/** Tries candidates in turn; remembers the first that answers. */
export class AutoTransport implements Transport {
  readonly #candidates: Transport[];
  #chosen: Transport | undefined;
  #picking: Promise<{ transport: Transport; listing: ToolListing }> | undefined;
  /** The candidate that serves the methods the chosen one does not carry. */
  #requester: Promise<Transport> | undefined;

  /**
   * Creates the transport.
   *
   * @param candidates The transports to try, in order.
   */
  constructor(candidates: Transport[]) {
    if (candidates.length === 0) throw new TypeError("AutoTransport needs at least one candidate");
    this.#candidates = candidates;
  }

  /** Whether every candidate sends each of its requests through `ctx.traceRequest`. */
  get tracesRequests(): boolean {
    return this.#candidates.every((candidate) => candidate.tracesRequests === true);
  }

  /** The chosen wire, or `auto` before the first request. */
  get wire(): string {
    return this.#chosen?.wire ?? "auto";
  }

  async listTools(ctx: RequestContext): Promise<ToolListing> {
    if (this.#chosen !== undefined) return await this.#chosen.listTools(ctx);
    return (await this.#pick(ctx)).listing;
  }

  async callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    return await (await this.#transport(ctx)).callTool(call, ctx);
  }

  async request(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    const transport = await this.#transport(ctx);
    if (transport.request !== undefined) {
      try {
        return await transport.request(method, params, ctx);
      } catch (error) {
        // A wire that carries some methods (MCP-lite: prompts, resources) but not this one, or a server whose
        // MCP-lite has no endpoint for it (404, 405: before the README's extensions): MCP serves it.
        const missing = error instanceof McpliteError &&
          (error.code === "unsupported" || error.status === 404 || error.status === 405);
        if (!missing) throw error;
      }
    }
    return await (await this.#requesterFor(method, transport, ctx)).request!(method, params, ctx);
  }

  async discover(ctx: RequestContext): Promise<Record<string, unknown>> {
    const transport = await this.#transport(ctx);
    const describer = transport.discover ? transport : await this.#requesterFor("server/discover", transport, ctx);
    if (describer.discover === undefined) {
      throw clientError("unsupported", `server/discover is not available over ${describer.wire}`);
    }
    return await describer.discover(ctx);
  }

  async close(): Promise<void> {
    const requester = await this.#requester?.catch(() => undefined);
    await Promise.all([this.#chosen?.close?.(), requester?.close?.()]);
  }

  /** Finds, once, the later candidate that carries `request` and lists the same server's tools. */
  #requesterFor(method: string, chosen: Transport, ctx: RequestContext): Promise<Transport> {
    this.#requester ??= this.#findRequester(method, chosen, quietContext(ctx)).catch((error) => {
      this.#requester = undefined;
      throw error;
    });
    return this.#requester;
  }

  async #findRequester(method: string, chosen: Transport, ctx: RequestContext): Promise<Transport> {
    const others = this.#candidates.slice(this.#candidates.indexOf(chosen) + 1).filter((t) => t.request);
    const found = await firstAnswering(others, { ...ctx, etag: undefined });
    if ("transport" in found) return found.transport;
    throw clientError(
      "unsupported",
      `${method} is not available over ${chosen.wire}${others.length > 0 ? ", and no MCP endpoint answered" : ""}`,
      { cause: found.last },
    );
  }

  async #transport(ctx: RequestContext): Promise<Transport> {
    if (this.#chosen !== undefined) return this.#chosen;
    const first = this.#picking === undefined;
    const { transport, listing } = await this.#pick(quietContext(ctx));
    // The tools were read to find the wire: the client keeps them rather than ask again.
    if (first) ctx.onListing?.(listing);
    return transport;
  }

  #pick(ctx: RequestContext): Promise<{ transport: Transport; listing: ToolListing }> {
    this.#picking ??= this.#tryAll({ ...ctx, etag: undefined }).finally(() => {
      if (this.#chosen === undefined) this.#picking = undefined;
    });
    return this.#picking;
  }

  async #tryAll(ctx: RequestContext): Promise<{ transport: Transport; listing: ToolListing }> {
    const found = await firstAnswering(this.#candidates, ctx);
    if ("transport" in found) {
      this.#chosen = found.transport;
      return found;
    }
    throw transportError(`No MCP-lite or MCP endpoint answered: ${(found.last as Error).message}`, {
      status: (found.last as McpliteError).status,
      cause: found.last,
    });
  }
}

/** Lists the tools of each candidate in turn: the first that answers, or the last "not here" answer. */
async function firstAnswering(
  candidates: Transport[],
  ctx: RequestContext,
): Promise<{ transport: Transport; listing: ToolListing } | { last: unknown }> {
  let last: unknown;
  for (const transport of candidates) {
    try {
      return { transport, listing: await transport.listTools(ctx) };
    } catch (error) {
      if (ctx.signal.aborted || !isNotHere(error)) throw error;
      last = error;
    }
  }
  return { last };
}

/** An answer that means "not this wire here": 404, 405, 415, or an unknown method. */
function isNotHere(error: unknown): boolean {
  if (!(error instanceof McpliteError)) return false;
  const status = error.status;
  if (status === 404 || status === 405 || status === 415 || status === 400) return true;
  return error.rpcCode === -32601 ||
    (isTransportError(error) && status !== undefined && status >= 400 && status < 500);
}
