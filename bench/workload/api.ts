/**
 * The product API the tools call: our TypeScript stand-in for the benchmark's Go `api-service` (its
 * `main.go`), on `node:http` so it runs on Node and Bun. The same 100,000-product catalog built at start
 * from the same formulas, the same four routes and the same work per request (a search filters the
 * category's 5,000 products by price and sorts them by price, as the Go service does), and the same bytes:
 * the fields in the Go structs' order, one JSON document and a newline (`json.Encoder`), `404 page not
 * found` / `bad request` as `net/http` writes them. Numbers print alike: Go's shortest float formatting
 * and ECMAScript's Number::toString give the same digits for every price, rating, weight and total here.
 *
 *   bun bench/workload/api.ts [port]     prints `LISTENING <port>` (port 0: a free one)
 *
 * Why not the Go service itself: it routes with Go 1.22's method patterns (`GET /products/{id}`), and
 * Debian's `golang-go` here is Go 1.19, whose `ServeMux` takes those patterns as literal paths.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import process from "node:process";

const CATEGORIES =
  "Electronics Books Clothing Sports Home Garden Toys Food Beauty Automotive Music Movies Games Office Health Pets Travel Tools Jewelry Baby"
    .split(" ");
const BRANDS = ("Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau " +
  "Upsilon Phi Chi Psi Omega Apex Nexus Vertex Zenith Nadir Flux Forge Craft Build Make Create Design Style Form " +
  "Shape Mold Cast Weld Fuse Bond Link Chain Wire Mesh Weave Knit").split(" ");
const TAGS = ["sale", "new", "featured", "bestseller", "clearance", "limited", "popular", "exclusive"];

interface Product {
  id: number;
  sku: string;
  name: string;
  category: string;
  brand: string;
  price: number;
  stock: number;
  rating: number;
  tags: string[];
  weight: number;
  description: string;
}

/** Rounds to cents, as the Go service's `r2` (half away from zero; every value here is positive). */
const r2 = (x: number) => Math.round(x * 100) / 100;
const pad6 = (n: number) => String(n).padStart(6, "0");
/** float32 arithmetic, as the Go struct's `Rating float32`. */
const f32 = Math.fround;

const catalog: Product[] = [];
const byCategory = new Map<string, number[]>();
for (let i = 0; i < 100_000; i++) {
  const category = CATEGORIES[i % 20], brand = BRANDS[i % 50];
  const tags: string[] = [];
  for (let j = 0; j < 2 + i % 3; j++) tags.push(TAGS[(i + j) % 8]);
  catalog.push({
    id: i + 1,
    sku: `SKU-${pad6(i + 1)}`,
    name: `${brand} ${category} Item ${i + 1}`,
    category,
    brand,
    price: 1 + (i % 99_900) / 100,
    stock: i % 501,
    // Go prints a float32 with its shortest float32 digits; the float64 nearest those digits prints alike.
    rating: Number(f32(f32(1) + f32(f32(i % 40) / f32(10))).toPrecision(7)),
    tags,
    weight: r2((1 + i % 100) * 0.1),
    description: `Quality ${category} by ${brand}. SKU ${pad6(i + 1)}.`,
  });
  const list = byCategory.get(category) ?? byCategory.set(category, []).get(category)!;
  list.push(i);
}

function send(res: ServerResponse, status: number, body: string, type = "application/json") {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) }).end(body);
}
const sendJson = (res: ServerResponse, value: unknown) => send(res, 200, JSON.stringify(value) + "\n");
const notFound = (res: ServerResponse) => send(res, 404, "404 page not found\n", "text/plain; charset=utf-8");

function search(res: ServerResponse, q: URLSearchParams) {
  const category = q.get("category") || "Electronics";
  const min = Number.parseFloat(q.get("min_price") ?? "") || 0;
  const max = Number.parseFloat(q.get("max_price") ?? "") || Number.MAX_VALUE;
  let limit = Number.parseInt(q.get("limit") ?? "", 10) || 0;
  if (limit <= 0 || limit > 1000) limit = 10;
  const indices = byCategory.get(category);
  if (indices === undefined) return sendJson(res, { category, total_found: 0, products: [] });
  const matching: Product[] = [];
  for (const index of indices) {
    const p = catalog[index];
    if (p.price >= min && p.price <= max) matching.push(p);
  }
  matching.sort((a, b) => a.price - b.price);
  sendJson(res, {
    category,
    total_found: matching.length,
    products: matching.length === 0 ? null : matching.slice(0, limit), // Go's nil slice prints null
  });
}

function calculate(res: ServerResponse, body: string) {
  let request: { user_id?: string; items?: { product_id?: number; quantity?: number }[] };
  try {
    request = JSON.parse(body);
  } catch {
    return send(res, 400, "bad request\n", "text/plain; charset=utf-8");
  }
  const userId = request.user_id ?? "", items = request.items ?? [];
  let subtotal = 0;
  for (const { product_id = 0, quantity = 0 } of items) {
    if (product_id >= 1 && product_id <= 100_000) subtotal += catalog[product_id - 1].price * quantity;
  }
  subtotal = r2(subtotal);
  const tax = r2(subtotal * 0.085);
  const discount = subtotal >= 100 ? r2(subtotal * 0.1) : 0;
  const shipping = subtotal >= 100 ? 0 : 5.99;
  sendJson(res, {
    order_id: `ORD-${userId.replaceAll("-", "")}-${items.length}`,
    user_id: userId,
    subtotal,
    tax,
    shipping,
    discount,
    total: r2(subtotal + tax + shipping - discount),
    items_count: items.length,
  });
}

function route(req: IncomingMessage, res: ServerResponse, body: string) {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method === "GET" && path === "/health") return sendJson(res, { server_type: "api-service", status: "ok" }); // Go sorts a map's keys
  if (req.method === "GET" && path === "/products/search") return search(res, new URLSearchParams(url.slice(q + 1)));
  if (req.method === "GET" && path.startsWith("/products/")) {
    const tail = path.slice("/products/".length);
    const id = /^[0-9]+$/.test(tail) ? Number(tail) : 0;
    return id >= 1 && id <= 100_000 ? sendJson(res, catalog[id - 1]) : notFound(res);
  }
  if (req.method === "POST" && path === "/cart/calculate") return calculate(res, body);
  notFound(res);
}

const server = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => body += chunk);
  req.on("end", () => route(req, res, body));
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 8100), "127.0.0.1", () => {
  console.log(`LISTENING ${(server.address() as { port: number }).port}`);
});
