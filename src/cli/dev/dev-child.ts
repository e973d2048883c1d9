/**
 * The child `mcplite dev` runs on each restart: imports the server module, serves what it exports on a
 * free loopback port, and tells the parent on stdout (one `@mcplite-dev` line) where it listens or why
 * the module failed to load. It ends when the parent closes its stdin.
 *
 * @module
 */
import { serve } from "../../server/serve.ts";
import { DEV_MESSAGE_PREFIX, type DevMessage, serverOf } from "./dev-messages.ts";

const g = globalThis as {
  Deno?: {
    args: string[];
    stdin: { readable: ReadableStream<Uint8Array> };
    stdout: { write(bytes: Uint8Array): Promise<number> };
    exit(code: number): never;
  };
  process?: {
    argv: string[];
    stdin: { on(event: string, listener: () => void): void; resume(): void };
    stdout: { write(text: string, callback: () => void): boolean };
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

/** The parent closes our stdin when it goes away (even when killed): no orphan keeps serving. */
async function exitWithParent(): Promise<void> {
  if (g.Deno) {
    for await (const _ of g.Deno.stdin.readable) { /* nothing is sent; EOF ends the loop */ }
    exit(0);
  }
  g.process!.stdin.on("end", () => exit(0));
  g.process!.stdin.on("close", () => exit(0));
  g.process!.stdin.resume();
}

const moduleUrl = (g.Deno ? g.Deno.args : g.process!.argv.slice(2))[0];
void exitWithParent();
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
const listener = await serve(found, { port: 0, hostname: "127.0.0.1", quiet: true });
const declared = (found as { basePath?: unknown }).basePath; // a Server's; any other Fetchable has none
const basePath = typeof declared === "string" ? declared : "";
await send({ type: "ready", url: listener.url, basePath });
