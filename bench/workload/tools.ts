/**
 * The workload's three I/O tools (TM Dev Lab "MCP Server Performance Benchmark v2", ADDING_SERVERS.md,
 * "Tool Contract"), as a user of this package writes them: `defineTool()` with valibot inputs, `ioredis`
 * and `fetch`. The I/O of each tool is a plain function so the official SDK's server (`official.ts`) and
 * the floor (`floor.ts`) run exactly the same I/O; only the protocol around it differs.
 *
 * @module
 */
import { defineTool } from "../../mod.ts";
import { Redis } from "ioredis";
import process from "node:process";
import * as v from "valibot";

/** Where the product API and Redis are, and the `server_type` every result carries. */
export interface Backends {
  /** The product API's base URL (`API_SERVICE_URL`). */
  api: string;
  /** A connected client (`REDIS_URL`). */
  redis: Redis;
  /** The `server_type` field of every result. */
  serverType: string;
}

/** `search_products`'s input, with the contract's defaults. */
export const SearchInput = v.object({
  category: v.optional(v.string(), "Electronics"),
  min_price: v.optional(v.number(), 50),
  max_price: v.optional(v.number(), 500),
  limit: v.optional(v.pipe(v.number(), v.integer()), 10),
});

/** `get_user_cart`'s input. */
export const CartInput = v.object({ user_id: v.optional(v.string(), "user-00042") });

/** `checkout`'s input. */
export const CheckoutInput = v.object({
  user_id: v.optional(v.string(), "user-00042"),
  items: v.optional(
    v.array(v.object({ product_id: v.pipe(v.number(), v.integer()), quantity: v.pipe(v.number(), v.integer()) })),
    () => [{ product_id: 42, quantity: 2 }, { product_id: 1337, quantity: 1 }],
  ),
});

/** A JSON answer of the product API (any status other than 2xx is an error, as for every HTTP client). */
async function json<T>(response: Promise<Response>): Promise<T> {
  const answer = await response;
  if (!answer.ok) throw new Error(`product API answered ${answer.status}`);
  return await answer.json() as T;
}

interface Product {
  id: number;
  sku: string;
  name: string;
  price: number;
  rating: number;
}

/**
 * `search_products`: the API's search and the top ten of `bench:popular`, in parallel, merged.
 *
 * @param b The backends.
 * @param input The parsed input.
 * @returns The contract's result.
 */
export async function searchProducts(b: Backends, input: v.InferOutput<typeof SearchInput>): Promise<object> {
  const { category, min_price, max_price, limit } = input;
  const query = `category=${encodeURIComponent(category)}&min_price=${min_price}&max_price=${max_price}&limit=${limit}`;
  const [found, popular] = await Promise.all([
    json<{ total_found: number; products: Product[] }>(fetch(`${b.api}/products/search?${query}`)),
    b.redis.zrevrange("bench:popular", 0, 9),
  ]);
  const top10 = popular.map((member) => Number(member.slice(member.indexOf(":") + 1)));
  const products = found.products.map(({ id, sku, name, price, rating }) => {
    const rank = top10.indexOf(id) + 1; // 0 when not in the top ten
    return { id, sku, name, price, rating, popularity_rank: rank };
  });
  return {
    category,
    total_found: found.total_found,
    products,
    top10_popular_ids: top10,
    server_type: b.serverType,
  };
}

/**
 * `get_user_cart`: the cart's hash, then its first product from the API and the last five orders, in
 * parallel.
 *
 * @param b The backends.
 * @param input The parsed input.
 * @returns The contract's result.
 */
export async function getUserCart(b: Backends, input: v.InferOutput<typeof CartInput>): Promise<object> {
  const { user_id } = input;
  const cart = await b.redis.hgetall(`bench:cart:${user_id}`);
  const items = cart.items ? JSON.parse(cart.items) as { product_id: number }[] : [];
  const [, history] = await Promise.all([
    json<unknown>(fetch(`${b.api}/products/${items[0]?.product_id ?? 1}`)),
    b.redis.lrange(`bench:history:${user_id}`, 0, 4),
  ]);
  return {
    user_id,
    cart: { items, item_count: items.length, estimated_total: Number(cart.total ?? 0) },
    recent_history: history.map((entry) => JSON.parse(entry)),
    server_type: b.serverType,
  };
}

/**
 * `checkout`: the API's total, the user's rate-limit counter, the order appended to the history and the
 * first product's popularity, all four in parallel.
 *
 * @param b The backends.
 * @param input The parsed input.
 * @returns The contract's result.
 */
export async function checkout(b: Backends, input: v.InferOutput<typeof CheckoutInput>): Promise<object> {
  const { user_id, items } = input;
  const n = Number(user_id.slice(user_id.lastIndexOf("-") + 1)) || 42;
  const order = JSON.stringify({ order_id: `ORD-${user_id}-${Date.now()}`, items, ts: Math.floor(Date.now() / 1000) });
  const [priced, count] = await Promise.all([
    json<{ order_id: string; total: number }>(fetch(`${b.api}/cart/calculate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id, items }),
    })),
    b.redis.incr(`bench:ratelimit:user-${String(n % 100).padStart(5, "0")}`),
    b.redis.rpush(`bench:history:${user_id}`, order),
    b.redis.zincrby("bench:popular", 1, `product:${items[0]?.product_id ?? 1}`),
  ]);
  return {
    order_id: priced.order_id,
    user_id,
    total: priced.total,
    items_count: items.length,
    rate_limit_count: count,
    status: "confirmed",
    server_type: b.serverType,
  };
}

/**
 * The three tools on this package.
 *
 * @param b The backends.
 * @returns `search_products`, `get_user_cart` and `checkout`.
 */
export function workloadTools(b: Backends) {
  return [
    defineTool("search_products")
      .describe("Search products by category and price range, merged with popularity data")
      .input(SearchInput)
      .handle((input) => searchProducts(b, input)),
    defineTool("get_user_cart")
      .describe("Get user cart details with recent order history")
      .input(CartInput)
      .handle((input) => getUserCart(b, input)),
    defineTool("checkout")
      .describe("Process checkout: calculate total, update rate limit, record history")
      .input(CheckoutInput)
      .handle((input) => checkout(b, input)),
  ] as const;
}

/**
 * The backends from the contract's environment (`API_SERVICE_URL`, `REDIS_URL`), one Redis connection
 * per process as the benchmark's servers have.
 *
 * @param serverType The `server_type` of every result (`SERVER_TYPE` overrides it).
 * @returns The backends.
 */
export function backendsFromEnv(serverType: string): Backends {
  const env = process.env;
  return {
    api: env.API_SERVICE_URL ?? "http://127.0.0.1:8100",
    redis: new Redis(env.REDIS_URL ?? "redis://127.0.0.1:6379", { enableReadyCheck: false, maxRetriesPerRequest: 3 }),
    serverType: env.SERVER_TYPE ?? serverType,
  };
}
