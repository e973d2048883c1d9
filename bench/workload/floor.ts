/**
 * The floor: the same three tools (`tools.ts`, the same I/O) as plain JSON endpoints with no MCP at all,
 * `POST /tools/<name>` with the arguments as the body and the result as the answer, on the runtime's
 * own server (`Bun.serve` on Bun, `node:http` on Node) with no framework. What any MCP server on this
 * workload would serve with nothing but the tools. One process; `worker.ts` runs several.
 *
 * @module
 */
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
import { serveBare } from "./bare-server.ts";

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
 * @returns The server, once it listens.
 */
export function start(port: number): Promise<unknown> {
  return serveBare(port, async (_method, path, body) => {
    const [status, text] = await answer(path, body);
    return [status, text, JSON_HEADERS];
  });
}
