/**
 * A multi-step wizard: one tool asks the user three questions in turn (elicitation), with a side
 * effect between them that runs once however many rounds follow. The handler is written once; each
 * wire asks in its own way:
 *
 * - MCP-lite: `response_type: "elicitation"` with `input_requests` and a signed `request_state`; the
 *   client calls again with `inputResponses` and `requestState`.
 * - MCP 2026-07-28: `resultType: "input_required"` with `inputRequests` and `requestState` (SEP-2322).
 * - MCP 2025: `elicitation/create` requests on the call's SSE stream, answered by POSTing back.
 *
 *   deno run -A --unstable-no-legacy-abort examples/wizard.ts          bun run examples/wizard.ts
 *   deno run -A --unstable-no-legacy-abort examples/wizard.ts --demo
 *     (serves, runs the wizard over MCP-lite and MCP 2026, exits)
 *
 * Reads PORT (default 8000) and HOSTNAME (default 127.0.0.1) from the environment, and the token
 * secret from MCPLITE_SECRET (without one, a round's state resumes only on this process).
 */
import * as v from "valibot";
import { createServer, defineTool, fail, serve } from "../mod.ts";

/** The ids reserved so far: the reservation is the side effect that must run once per project. */
export const reservations: string[] = [];

const TEMPLATES = ["blank", "web-app", "api"] as const;
const VISIBILITIES = ["private", "team", "public"] as const;

const setupProject = defineTool("setup_project")
  .type("action")
  .title("Set up a project")
  .describe("Creates a project in a workspace, asking the user for its name, template and sharing, then to confirm")
  .input(v.object({ workspace: v.pipe(v.string(), v.minLength(1), v.description("The workspace to create it in")) }))
  .output(v.object({
    id: v.string(),
    name: v.string(),
    template: v.string(),
    visibility: v.string(),
    invited: v.array(v.string()),
  }))
  .handle(async ({ workspace }, ctx) => {
    // Step 1: the basics.
    const basics = await ctx.elicit("basics", {
      message: `A new project in ${workspace}: what is it called, and which template should it start from?`,
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Project name", minLength: 1 },
          template: { type: "string", title: "Template", enum: [...TEMPLATES], default: "blank" },
        },
        required: ["name"],
      },
    });
    if (basics.action !== "accept") return fail(`No project created: the user chose ${basics.action}`);
    const name = String(basics.content?.name ?? "").trim();
    if (name === "") return fail("No project created: the name was empty");
    const template = TEMPLATES.find((t) => t === basics.content?.template) ?? "blank";

    // A side effect between questions: on later rounds its value comes back from the signed state.
    const id = await ctx.step("reserve", () => {
      const reserved = `${workspace}/${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${reservations.length + 1}`;
      reservations.push(reserved);
      return reserved;
    });

    // Step 2: who sees it.
    const sharing = await ctx.elicit("sharing", {
      message: `Who can see ${name}?`,
      requestedSchema: {
        type: "object",
        properties: {
          visibility: { type: "string", title: "Visibility", enum: [...VISIBILITIES] },
          invite: { type: "string", title: "Invite (comma-separated emails)" },
        },
        required: ["visibility"],
      },
    });
    if (sharing.action !== "accept") return fail(`No project created: the user chose ${sharing.action}`);
    const visibility = VISIBILITIES.find((x) => x === sharing.content?.visibility) ?? "private";
    const invited = String(sharing.content?.invite ?? "").split(",").map((e) => e.trim()).filter((e) => e !== "");

    // Step 3: confirm.
    const confirm = await ctx.elicit("confirm", {
      message: `Create ${name} (${template}, ${visibility}, ${invited.length} invited) as ${id}?`,
      requestedSchema: {
        type: "object",
        properties: { ok: { type: "boolean", title: "Create it" } },
        required: ["ok"],
      },
    });
    if (confirm.action !== "accept" || confirm.content?.ok !== true) return fail(`${id} was not created`);
    return { id, name, template, visibility, invited };
  });

export const server = createServer({
  name: "wizard",
  version: "1.0.0",
  instructions: "setup_project asks the user a few questions before it creates anything.",
}).tool(setupProject);

/** What the demo's "user" answers, by question. */
export const DEMO_ANSWERS: Record<string, unknown> = {
  basics: { action: "accept", content: { name: "Moon Base", template: "web-app" } },
  sharing: { action: "accept", content: { visibility: "team", invite: "ada@example.com, linus@example.com" } },
  confirm: { action: "accept", content: { ok: true } },
};

async function demo(base: string): Promise<void> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return (await response.json()).result;
  };
  const args = { workspace: "acme" };

  // MCP-lite: each round answers `response_type: "elicitation"`.
  let params: Record<string, unknown> = { name: "setup_project", arguments: args };
  for (let round = 1; round <= 5; round++) {
    const result = await post("/mcp-lite/v1/calltools", { jsonrpc: "2.0", id: round, method: "tools/call", params });
    if (result._meta.response_type !== "elicitation") {
      console.log(`MCP-lite: ${result._meta.response_type}`, JSON.stringify(result.structuredContent));
      break;
    }
    const keys = Object.keys(result._meta.input_requests);
    console.log(`MCP-lite round ${round}: asked ${keys.join(", ")}`);
    params = {
      ...params,
      inputResponses: Object.fromEntries(keys.map((key) => [key, DEMO_ANSWERS[key]])),
      requestState: result._meta.request_state,
    };
  }

  // MCP 2026-07-28: each round answers `resultType: "input_required"`.
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "setup_project" };
  params = { name: "setup_project", arguments: args, _meta: meta };
  for (let round = 1; round <= 5; round++) {
    const result = await post("/mcp", { jsonrpc: "2.0", id: round, method: "tools/call", params }, headers);
    if (result.resultType !== "input_required") {
      console.log(`MCP 2026: ${result.resultType}`, JSON.stringify(result.structuredContent));
      break;
    }
    const keys = Object.keys(result.inputRequests);
    console.log(`MCP 2026 round ${round}: asked ${keys.join(", ")}`);
    params = {
      ...params,
      inputResponses: Object.fromEntries(keys.map((key) => [key, DEMO_ANSWERS[key]])),
      requestState: result.requestState,
    };
  }
}

if (import.meta.main) {
  const listener = await serve(server, { quiet: true }); // the lines below say more
  console.log(`wizard server listening on ${listener.url}
  MCP-lite  POST ${listener.url}/mcp-lite/v1/calltools
  MCP       POST ${listener.url}/mcp`);
  const g = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
  const cli = g.Deno?.args ?? g.process?.argv.slice(2) ?? [];
  if (cli.includes("--demo")) {
    await demo(listener.url);
    await listener.close();
  }
}
