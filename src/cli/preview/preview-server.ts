/**
 * The preview's HTTP side, on 127.0.0.1: the page, the view (under the CSP its resource asks for,
 * SEP-1865, Content Security Policy Enforcement), and `/rpc`, which carries the page's requests to the
 * MCP server through the CLI's client (`tools/call`, `resources/read`, `resources/list`,
 * `resources/templates/list`). The view may call only tools whose visibility includes
 * `"app"` (SEP-1865, Visibility); `/rpc` answers only requests that carry the page's secret.
 *
 * @module
 */
import type { Client } from "../../client/client.ts";
import type { ToolInfo } from "../../client/transport.ts";
import { appAllow, appCsp } from "../../apps/csp.ts";
import type { AppResourceMeta } from "../../internal/mcp-apps-wire.ts";
import { UI_PROTOCOL_VERSION, visibleTo } from "../../internal/mcp-apps-wire.ts";
import { errorLine } from "../exit-errors.ts";
import { previewPage } from "./page.ts";
import { SDK_VERSION } from "../../internal/version.ts";

/** What one preview shows. */
export interface PreviewSession {
  /** The client connected to the server. */
  readonly client: Client;
  /** The tool, as listed. */
  readonly tool: ToolInfo;
  /** Its arguments. */
  readonly args: Record<string, unknown>;
  /** The view's HTML. */
  readonly html: string;
  /** The view's `_meta.ui`. */
  readonly ui: AppResourceMeta | undefined;
  /** Aborted when the preview stops. */
  readonly signal: AbortSignal;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Makes the preview's fetch handler.
 *
 * @param session What to show.
 * @returns The handler.
 */
export function previewHandler(session: PreviewSession): (request: Request) => Promise<Response> {
  const token = crypto.randomUUID();
  const page = previewPage(
    {
      token,
      tool: session.tool as unknown as Record<string, unknown>,
      args: session.args,
      hostInfo: { name: "mcplite-preview", version: SDK_VERSION },
      protocolVersion: UI_PROTOCOL_VERSION,
    },
    appAllow(session.ui?.permissions),
    session.ui?.prefersBorder !== false,
  );
  const html = (body: string, extra: Record<string, string> = {}) =>
    new Response(body, {
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...extra },
    });
  return async (request) => {
    const url = new URL(request.url);
    // DNS rebinding: answer only requests addressed to the loopback interface.
    if (!LOOPBACK.has(url.hostname)) return new Response("not found", { status: 404 });
    if (request.method === "GET" && url.pathname === "/") return html(page);
    if (request.method === "GET" && url.pathname === "/view") {
      return html(session.html, { "content-security-policy": appCsp(session.ui?.csp) });
    }
    if (request.method === "POST" && url.pathname === "/rpc") {
      if (request.headers.get("x-preview-token") !== token) return new Response("forbidden", { status: 403 });
      const { method, params } = await request.json() as { method: string; params: Record<string, unknown> };
      try {
        return Response.json({ result: await forward(session, method, params ?? {}) });
      } catch (error) {
        const code = typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : -32603;
        return Response.json({ error: { code, message: errorLine(error) } });
      }
    }
    return new Response("not found", { status: 404 });
  };
}

/** Carries one request of the page to the server. */
async function forward(session: PreviewSession, method: string, params: Record<string, unknown>): Promise<unknown> {
  const { client, signal } = session;
  switch (method) {
    case "host/call": // the host's own call, which opened the view
      return await client.callTool(session.tool.name, session.args, { signal });
    case "tools/call": {
      const name = String(params.name);
      const tool = (await client.listTools({ signal })).find((t) => t.name === name);
      // SEP-1865, Visibility: the host MUST reject a view's call to a tool not visible to apps.
      if (tool === undefined || !visibleTo(tool._meta, "app")) {
        throw Object.assign(new Error(`tool ${JSON.stringify(name)} is not callable from the view`), { code: -32602 });
      }
      return await client.callTool(name, (params.arguments ?? {}) as Record<string, unknown>, { signal });
    }
    case "resources/read":
      return await client.readResource(String(params.uri), { signal });
    case "resources/list": // what the host advertises as `serverResources` (SEP-1865, Host Capabilities)
    case "resources/templates/list": {
      // One page per request, as the view asked: only its cursor goes on.
      const cursor = typeof params.cursor === "string" ? { cursor: params.cursor } : {};
      return await client.request(method, cursor, { signal });
    }
    default:
      throw Object.assign(new Error(`Method not found: ${method}`), { code: -32601 });
  }
}
