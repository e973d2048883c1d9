/**
 * Request builders for calling a server's `fetch` directly, without sockets.
 */
import { readUntil } from "./wait.ts";

/** The base every in-process request uses (a loopback host passes the default Host check). */
export const BASE = "http://localhost";

/** Builds a JSON POST. */
export function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(BASE + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Builds a JSON-RPC `tools/call` message. */
export function toolsCall(name: string, args?: unknown, id: string | number = 1): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: args === undefined ? { name } : { name, arguments: args },
  };
}

/** The `_meta` envelope of an MCP 2026-07-28 request. */
export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "tests", version: "0.0.0" },
    ...extra,
  };
}

/** Builds an MCP 2026-07-28 request with its envelope and headers. */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  id: string | number = 1,
  headers: Record<string, string> = {},
): Request {
  const name = typeof params.name === "string"
    ? params.name
    : typeof params.uri === "string"
    ? params.uri
    : typeof params.taskId === "string"
    ? params.taskId
    : undefined;
  return post("/mcp", { jsonrpc: "2.0", id, method, params: { ...params, _meta: modernMeta(params._meta as never) } }, {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
    accept: "application/json, text/event-stream",
    ...headers,
  });
}

/** Builds an MCP 2025-era request; an id of `null` makes it a notification. */
export function legacyRequest(
  method: string,
  params: Record<string, unknown> = {},
  id: string | number | null = 1,
  version = "2025-11-25",
  headers: Record<string, string> = {},
): Request {
  const body: Record<string, unknown> = { jsonrpc: "2.0", method, params };
  if (id !== null) body.id = id;
  return post("/mcp", body, {
    "mcp-protocol-version": version,
    accept: "application/json, text/event-stream",
    ...headers,
  });
}

/** A task as `tasks/get` answers it (MCP 2026-07-28, tasks extension). */
export interface TaskState {
  readonly status: string;
  readonly result?: { readonly structuredContent?: unknown };
}

/**
 * Posts an MCP 2026-07-28 request whose client declares the tasks extension to `endpoint` (a listening server's
 * MCP URL), at most 10 s, and returns its JSON-RPC response.
 */
// deno-lint-ignore no-explicit-any
export async function postWithTasks(endpoint: string, method: string, params: Record<string, unknown>): Promise<any> {
  const tasks = { extensions: { "io.modelcontextprotocol/tasks": {} } };
  const request = modernRequest(method, {
    ...params,
    _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": tasks }),
  });
  const response = await fetch(endpoint, {
    method: "POST",
    headers: request.headers,
    body: await request.text(),
    signal: AbortSignal.timeout(10_000),
  });
  return await response.json();
}

/**
 * Follows a task with `tasks/get` at `endpoint`, as a client polls it (every 100 ms), until it is no longer working;
 * fails after `timeoutMs`.
 */
export function taskEnded(endpoint: string, taskId: string, timeoutMs = 30_000): Promise<TaskState> {
  return readUntil(
    async (): Promise<TaskState> => (await postWithTasks(endpoint, "tasks/get", { taskId })).result,
    (task) => task.status !== "working",
    `the end of task ${taskId}`,
    { timeoutMs, everyMs: 100 },
  );
}
