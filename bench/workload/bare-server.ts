/**
 * The runtime's own HTTP server with no framework, as the workload's floors (`floor.ts`, `floor-mcp.ts`)
 * serve: `Bun.serve` on Bun (its port shared, `SO_REUSEPORT`, for `worker.ts`'s processes), `node:http`
 * on Node (shared by `node:cluster`). Each request's body is read whole as text and handed to the floor.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createServer } from "node:http";

/** A floor's answer: the status, the body (none for a 202 or 204), the headers besides `Content-Length`. */
export type BareAnswer = [status: number, body: string | undefined, headers: Record<string, string>];

/**
 * Listens on 127.0.0.1:`port`.
 *
 * @param port The port (shared by every worker).
 * @param respond The floor: its answer to a method, a path and a body.
 * @returns The runtime's server, once it listens.
 */
export function serveBare(
  port: number,
  respond: (method: string, path: string, body: string) => Promise<BareAnswer>,
): Promise<unknown> {
  const bun = (globalThis as { Bun?: { serve(o: object): unknown } }).Bun;
  if (bun !== undefined) {
    return Promise.resolve(bun.serve({
      hostname: "127.0.0.1",
      port,
      reusePort: true,
      fetch: async (request: Request) => {
        const [status, body, headers] = await respond(
          request.method,
          new URL(request.url).pathname,
          await request.text(),
        );
        return new Response(body ?? null, { status, headers });
      },
    }));
  }
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => body += chunk);
    req.on("end", async () => {
      const [status, text, headers] = await respond(req.method ?? "GET", req.url ?? "/", body);
      // The 202 with a length of 0 rather than chunked (RFC 9112 §6.3); a 204 has neither (RFC 9110 §8.6).
      const length = status === 204
        ? {}
        : { "content-length": String(text === undefined ? 0 : Buffer.byteLength(text)) };
      res.writeHead(status, { ...headers, ...length }).end(text);
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}
