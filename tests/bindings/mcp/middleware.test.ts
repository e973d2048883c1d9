/**
 * Every MCP method meets the request middleware exactly once: routing wraps each method in it unless
 * the method declares (`ownLayer()`) that it runs the middleware itself. A method that runs it but is
 * not declared meets it twice; one declared that does not, never. Every method the tables route has a
 * request here, so a method added later is checked too.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, type Middleware } from "../../../mod.ts";
import { LEGACY_METHODS, MODERN_METHODS } from "../../../src/bindings/mcp/route.ts";
import { PROMPTS_ON_MCP } from "../../../src/bindings/mcp/prompts.ts";
import { RESOURCES_ON_MCP } from "../../../src/bindings/mcp/resources.ts";
import type { McpFeature } from "../../../src/bindings/mcp/feature-methods.ts";
import { SKILLS_SERVED_BY } from "../../../src/assembly/served-skills.ts";
import { defineSkill } from "../../../src/skills/mod.ts";
import { legacyRequest, modernRequest } from "../../helpers/request.ts";
import { greeting, readme, userProfile } from "./mcp-helpers.ts";

const SKILL_MD = "---\nname: greet\ndescription: Greets people politely\n---\nSay hello.\n";
const TASKS = {
  _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } },
};
const slow = defineTool("slow").longRunning({ retryAfterMs: 40 })
  .handle((_args, ctx) => ctx.promise({ state: {} }))
  .redeem(() => "done");
/** The Skills extension's MCP methods (SEP-2640), as `defineExtension()` serves them. */
const SKILLS_ON_MCP = SKILLS_SERVED_BY.extensions![0].features![0] as McpFeature;
const FEATURES = [PROMPTS_ON_MCP, RESOURCES_ON_MCP, SKILLS_ON_MCP];

/** A request of each method, by name. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  "server/discover": {},
  "initialize": { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  "ping": {},
  "logging/setLevel": { level: "info" },
  "tools/list": {},
  "tools/call": { name: "add", arguments: { a: 1, b: 2 } },
  "subscriptions/listen": { notifications: { toolsListChanged: true } },
  "tasks/get": { taskId: "not-a-task", ...TASKS },
  "tasks/update": { taskId: "not-a-task", inputResponses: {}, ...TASKS },
  "tasks/cancel": { taskId: "not-a-task", ...TASKS },
  "resources/list": {},
  "resources/templates/list": {},
  "resources/read": { uri: "docs://readme" },
  "resources/subscribe": { uri: "docs://readme" },
  "resources/unsubscribe": { uri: "docs://readme" },
  "resources/directory/read": { uri: "skill://greet/" },
  "prompts/list": {},
  "prompts/get": { name: "greeting", arguments: { name: "Ada" } },
  "completion/complete": { ref: { type: "ref/prompt", name: "greeting" }, argument: { name: "name", value: "A" } },
  "skills/list": {},
  "skills/get": { uri: "skill://greet/SKILL.md" },
};

/** Every method the tables route on an era: the server's own and those its definitions bring. */
function routed(modern: boolean): string[] {
  const names = new Set((modern ? MODERN_METHODS : LEGACY_METHODS).keys());
  for (const feature of FEATURES) {
    for (const name of Object.keys(feature.mcp[modern ? "modern" : "legacy"])) names.add(name);
  }
  return [...names].sort();
}

async function countingServer(seen: string[]) {
  const count: Middleware = async (call, next) => {
    seen.push(call.method);
    return await next();
  };
  return createServer({ name: "counted", version: "1.0.0", secret: "test secret: at least thirty-two bytes long" })
    .tool(defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b))
    .tool(slow)
    .resource(readme)
    .resource(userProfile)
    .prompt(greeting)
    .skill(await defineSkill({ "SKILL.md": SKILL_MD }))
    .use(count);
}

/** Sends a request and waits for its answer's head (a stream is then dropped). */
async function send(server: { fetch(request: Request): Promise<Response> }, request: Request): Promise<void> {
  const response = await server.fetch(request);
  await response.body?.cancel();
}

describe("request middleware meets each MCP method once", () => {
  for (const modern of [true, false]) {
    const era = modern ? "2026-07-28" : "2025-11-25";
    it(`${era}: every routed method has a request here`, () => {
      assert.deepEqual(routed(modern).filter((name) => !(name in SAMPLES)), []);
    });

    it(`${era}: the middleware runs once around each method`, async () => {
      const seen: string[] = [];
      const server = await countingServer(seen);
      const ran: Record<string, number> = {};
      for (const method of routed(modern)) {
        seen.length = 0;
        const params = SAMPLES[method];
        await send(server, modern ? modernRequest(method, params) : legacyRequest(method, params, 1, era));
        ran[method] = seen.filter((name) => name === method).length;
      }
      assert.deepEqual(ran, Object.fromEntries(routed(modern).map((method) => [method, 1])));
    });
  }
});
