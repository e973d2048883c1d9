/**
 * The floor: the same three tools (`tools.ts`, the same I/O) as plain JSON endpoints with no MCP at all,
 * `POST /tools/<name>` with the arguments as the body and the result as the answer, on the runtime's
 * own server (`Bun.serve` on Bun, `node:http` on Node) with no framework. What any MCP server on this
 * workload would serve with nothing but the tools. One process; `worker.ts` runs several.
 *
 * @module
 */
import { createServer } from "node:http";
import * as v from "valibot";
import {
  backendsFromEnv,
  CartInput,
  checkout,
  CheckoutInput,
  getUserCart,
  SearchInput,
  searchProducts,
} from "./tools.ts";

const b = backendsFromEnv("floor");

/** Each endpoint: the arguments parsed as the MCP tools parse them, then the same I/O. */
const ROUTES: Record<string, (args: unknown) => Promise<object>> = {
  "/tools/search_products": (args) => searchProducts(b, v.parse(SearchInput, args)),
  "/tools/get_user_cart": (args) => getUserCart(b, v.parse(CartInput, args)),
  "/tools/checkout": (args) => checkout(b, v.parse(CheckoutInput, args)),
};

/** One call: 200 with the result, 404 for another path, 400 for bad JSON or arguments, 500 if the I/O fails. */
async function answer(path: string, body: string): Promise<[number, string]> {
  const route = ROUTES[path];
  if (route === undefined) return [404, '{"error":"not found"}'];
  let args: unknown;
  try {
    args = body === "" ? {} : JSON.parse(body);
  } catch {
    return [400, '{"error":"bad JSON"}'];
  }
  try {
    return [200, JSON.stringify(await route(args))];
  } catch (error) {
    return [error instanceof v.ValiError ? 400 : 500, JSON.stringify({ error: String(error) })];
  }
}

const JSON_HEADERS = { "content-type": "application/json" };

/**
 * Listens on `port`.
 *
 * @param port The port (shared by every worker).
 */
export function start(port: number): Promise<unknown> {
  const bun = (globalThis as { Bun?: { serve(o: object): unknown } }).Bun;
  if (bun !== undefined) {
    return Promise.resolve(bun.serve({
      hostname: "127.0.0.1",
      port,
      reusePort: true,
      fetch: async (request: Request) => {
        const [status, body] = await answer(new URL(request.url).pathname, await request.text());
        return new Response(body, { status, headers: JSON_HEADERS });
      },
    }));
  }
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => body += chunk);
    req.on("end", async () => {
      const [status, text] = await answer(req.url ?? "/", body);
      res.writeHead(status, { ...JSON_HEADERS, "content-length": Buffer.byteLength(text) }).end(text);
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}
