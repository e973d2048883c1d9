/**
 * The child `mcplite dev` runs: started ahead of need with the SDK loaded (so that a restart costs
 * only the user's modules), it reads the server module's URL on stdin, imports it, serves what it
 * exports on a free loopback port, and tells the parent on stdout (one `@mcplite-dev` line) where it
 * listens or why the module failed to load. It ends when the parent closes its stdin.
 *
 * @module
 */
import type { Fetchable } from "../../runtime/listen-types.ts";
import { bodyLimitOf, bodyTimeoutOf, declareBodyLimit } from "../../runtime/body-bound.ts";
import { serve } from "../../server/serve.ts";
import { lendUpgrade, lentUpgradeOf, tookOver } from "../../runtime/socket-events.ts";
import { upgradeOnDeno } from "../../runtime/deno/websocket-upgrade.ts";
import { listDigests } from "./dev-lists.ts";
import { DEV_HOST_HEADER, DEV_MESSAGE_PREFIX, type DevMessage, serverOf } from "./dev-messages.ts";

const g = globalThis as {
  Deno?: {
    args: string[];
    stdin: { readable: ReadableStream<Uint8Array> };
    stdout: { write(bytes: Uint8Array): Promise<number> };
    addSignalListener(signal: "SIGINT", handler: () => void): void;
    exit(code: number): never;
  };
  process?: {
    argv: string[];
    stdin: { on(event: string, listener: (chunk?: unknown) => void): void; resume(): void };
    stdout: { write(text: string, callback: () => void): boolean };
    on(event: "SIGINT", handler: () => void): void;
    exit(code: number): never;
  };
};

function send(message: DevMessage): Promise<void> {
  const line = `${DEV_MESSAGE_PREFIX}${JSON.stringify(message)}\n`;
  if (g.Deno) return g.Deno.stdout.write(new TextEncoder().encode(line)).then(() => {});
  return new Promise((resolve) => g.process!.stdout.write(line, () => resolve()));
}

function exit(code: number): never {
  return g.Deno ? g.Deno.exit(code) : g.process!.exit(code);
}

/**
 * The first line on stdin (the module's URL); then, at end of input, the exit: the parent closes our
 * stdin when it goes away (even when killed), so no orphan keeps serving.
 */
function readModuleUrl(): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const take = (chunk: string) => {
      text += chunk;
      if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n")).trim());
    };
    if (g.Deno) {
      void (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of g.Deno!.stdin.readable) take(decoder.decode(chunk, { stream: true }));
        exit(0);
      })();
      return;
    }
    g.process!.stdin.on("data", (chunk) => take(String(chunk)));
    g.process!.stdin.on("end", () => exit(0));
    g.process!.stdin.on("close", () => exit(0));
    g.process!.stdin.resume();
  });
}

// The SDK's entry, the module the user's server imports too: loaded while waiting. Its failure is
// not ours to report (the user's import reports it, if it matters).
// Ctrl-C in a terminal reaches the whole process group: the dev server ends us (stdin's end, SIGTERM)
// once it has stopped listening, rather than have us die first and be reported as a crash.
if (g.Deno) g.Deno.addSignalListener("SIGINT", () => {});
else g.process!.on("SIGINT", () => {});
await import("../../../mod.ts").catch(() => {});
await send({ type: "waiting" });
const moduleUrl = await readModuleUrl();
let exports: Record<string, unknown>;
try {
  exports = await import(moduleUrl);
} catch (error) {
  const e = error as { name?: string; message?: string; stack?: string; position?: unknown; errors?: unknown[] };
  // Bun reports a syntax error as a build message with its position, several as an AggregateError of them.
  const all = (Array.isArray(e?.errors) ? e.errors : [e]) as { position?: unknown }[];
  const positions = all.map((x) => x?.position).filter(Boolean);
  await send({
    type: "failed",
    message: `${e?.name ?? "Error"}: ${e?.message ?? String(error)}`,
    stack: typeof e?.stack === "string" ? e.stack : undefined,
    positions: positions as Record<string, unknown>[],
  });
  exit(3);
}
const found = serverOf(exports);
if (typeof found === "string") {
  await send({ type: "failed", message: found });
  exit(3);
}
const listener = await serve(addressedTo(found), { port: 0, hostname: "127.0.0.1", quiet: true });
const declared = (found as { basePath?: unknown }).basePath; // a Server's; any other Fetchable has none
const basePath = typeof declared === "string" ? declared : "";
await send({ type: "ready", url: listener.url, basePath, lists: await listDigests(found) });

/**
 * The app, handed requests as the client addressed them (the dev server's host, which the dev server
 * sends as `x-mcplite-dev-host`, not this child's port), so that the URLs a server builds from its
 * request (OAuth's protected resource, RFC 9728 §3; OpenAPI's `servers`; links to promises) name the
 * port the client uses. The server's body limits go with it.
 */
function addressedTo(app: Fetchable): Fetchable {
  const fetch = (request: Request) => {
    const host = request.headers.get(DEV_HOST_HEADER);
    if (host === null) return app.fetch(request);
    const url = new URL(request.url);
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const headers = new Headers(request.headers);
    headers.delete(DEV_HOST_HEADER);
    headers.set("host", host);
    const addressed = new Request(`${url.protocol}//${host}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
      signal: request.signal,
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
    return headers.get("upgrade")?.toLowerCase() === "websocket"
      ? upgradeAs(app, request, addressed)
      : app.fetch(addressed);
  };
  const limit = bodyLimitOf(app);
  if (limit !== undefined) declareBodyLimit(fetch, limit, bodyTimeoutOf(app));
  return { fetch };
}

/**
 * A WebSocket upgrade (RFC 6455 §4.1) handed to the app as `addressed`: the runtime upgrades the request
 * it received, so that request's upgrade is lent to the one the app sees (Bun's and Node's lent one as
 * is; Deno's `upgradeWebSocket` of the received request, whose 101 answer is returned for the app's).
 */
async function upgradeAs(app: Fetchable, received: Request, addressed: Request): Promise<Response> {
  const lent = lentUpgradeOf(received);
  if (lent !== undefined) {
    lendUpgrade(addressed, lent);
    return await app.fetch(addressed);
  }
  let upgraded: Response | undefined;
  lendUpgrade(addressed, (events, accept) => {
    upgraded = upgradeOnDeno(received, events, accept);
    return upgraded !== undefined;
  });
  const answer = await app.fetch(addressed);
  return tookOver(answer) && upgraded !== undefined ? upgraded : answer;
}
