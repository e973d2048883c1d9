/**
 * The client side of the official MCP conformance suite: one script for every client scenario,
 * written with `@mcplite/sdk/client` as a user would. The runner passes the server URL as the last
 * argument and the scenario in `MCP_CONFORMANCE_SCENARIO` (plus `MCP_CONFORMANCE_PROTOCOL_VERSION`
 * and `MCP_CONFORMANCE_CONTEXT`). `.ci/conformance-client.sh` runs them all.
 *
 *   MCP_CONFORMANCE_SCENARIO=tools_call bun examples/conformance-client.ts http://localhost:3000/mcp
 */
import { env } from "../mod.ts";
import { importPKCS8 } from "jose";
import { type Client, type ClientAuth, createClient, type ElicitRequest, type ToolInfo } from "../src/client/mod.ts";
import { clientCredentials, enterpriseAuth, oauth, workloadIdentity } from "../src/client/oauth/mod.ts";

type Scenario = (client: Client, context: Record<string, unknown>) => Promise<void>;

/** SEP-2640: load the first listed skill, reading its other files only once SKILL.md verified. */
const loadFirstSkill: Scenario = async (client) => {
  const [entry] = await client.skills.list();
  if (entry === undefined) return;
  const skill = await client.skills.load(entry); // throws on a size, digest or frontmatter mismatch
  for (const path of skill.files) await skill.read(path);
};

const scenarios: Record<string, Scenario> = {
  // SEP-2640 (Skills extension): listing reads no file; loading verifies before using anything.
  "sep-2640-client-no-prefetch": async (client) => {
    await client.skills.list();
  },
  "sep-2640-client-verify-digest": loadFirstSkill,
  "sep-2640-client-verify-size": loadFirstSkill,
  "sep-2640-client-verify-frontmatter": loadFirstSkill,

  // 2025: initialize, notifications/initialized, tools/list.
  initialize: async (client) => {
    await client.listTools();
  },

  // 2025 and 2026: list, then call add_numbers with numbers.
  tools_call: async (client) => {
    const tools = await client.listTools();
    if (tools.some((t) => t.name === "add_numbers")) await client.call("add_numbers", { a: 5, b: 3 });
  },

  // 2026: the envelope and version header on every request; the first one is refused with -32022.
  "request-metadata": async (client) => {
    await client.listTools();
  },

  // 2026: MRTR. Echo requestState byte for byte under a new id; keep rounds apart; no state, no retry.
  "sep-2322-client-request-state": async (client) => {
    const names = new Set((await client.listTools()).map((t) => t.name));
    const call = (name: string) => names.has(name) ? client.call(name, {}) : Promise.resolve(undefined);
    await Promise.all([call("test_mrtr_echo_state"), call("test_mrtr_unrelated")]);
    await call("test_mrtr_no_state");
    await call("test_mrtr_state_only");
    await call("test_mrtr_no_result_type");
  },

  // 2026: Mcp-Method on every request, Mcp-Name on tools/call, resources/read and prompts/get.
  "http-standard-headers": async (client) => {
    for (const tool of await client.listTools()) await client.call(tool.name, {});
    for (const resource of await client.listResources()) await client.readResource(String(resource.uri));
    for (const prompt of await client.listPrompts()) await client.getPrompt(String(prompt.name));
  },

  // 2026: x-mcp-header parameters mirrored into Mcp-Param-* headers, encoded.
  "http-custom-headers": async (client, context) => {
    await client.listTools();
    const calls = Array.isArray(context.toolCalls)
      ? context.toolCalls as { name: string; arguments: Record<string, unknown> }[]
      : [];
    for (const { name, arguments: args } of calls) await client.call(name, args);
  },

  // 2026: tools with invalid x-mcp-header annotations are dropped; the valid one is called.
  "http-invalid-tool-headers": async (client) => {
    for (const tool of await client.listTools()) await client.call(tool.name, sampleArguments(tool));
  },

  // 2026: a network $ref in an inputSchema is never fetched.
  "json-schema-ref-no-deref": async (client) => {
    await client.listTools();
  },

  // Unscored: a JSON Schema 2020-12 inputSchema is sent back unchanged.
  "json-schema-2020-12-preservation": async (client) => {
    const tools = await client.listTools();
    const source = tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (source && tools.some((t) => t.name === "json_schema_echo")) {
      await client.call("json_schema_echo", { schema: source.inputSchema });
    }
  },

  // 2025: a POST stream closed early is resumed with GET + Last-Event-ID after the retry delay.
  "sse-retry": async (client) => {
    const tools = await client.listTools();
    if (tools.some((t) => t.name === "test_reconnection")) await client.call("test_reconnection", {});
  },

  // 2025: a server→client elicitation whose fields all have defaults; the client fills them in.
  "elicitation-sep1034-client-defaults": async (client) => {
    await client.listTools();
    await client.call("test_client_elicitation_defaults", {});
  },
};

/** Every auth/* scenario: list the tools and call each (a 403 step-up happens on the call). */
async function authScenario(client: Client): Promise<void> {
  for (const tool of await client.listTools()) await client.call(tool.name, {});
}

/** The Client ID Metadata Document URL the suite expects (auth/basic-cimd). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * The auth for a scenario: client credentials, workload identity or enterprise-managed authorization
 * for the machine-to-machine extension scenarios, else the authorization-code flow (with DPoP for the
 * DPoP scenarios) whose "user" follows the suite's auto-approving authorize redirect.
 */
async function authFor(name: string, context: Record<string, unknown>): Promise<ClientAuth | undefined> {
  if (!name.startsWith("auth/")) return undefined;
  const clientId = typeof context.client_id === "string" ? context.client_id : undefined;
  const clientSecret = typeof context.client_secret === "string" ? context.client_secret : undefined;
  if (name === "auth/client-credentials-jwt" && clientId !== undefined) {
    const alg = typeof context.signing_algorithm === "string" ? context.signing_algorithm : "ES256";
    const key = await importPKCS8(String(context.private_key_pem), alg);
    // jose types its key as node:crypto's CryptoKey when Node's types are loaded; it is the Web Crypto key.
    return clientCredentials({ clientId, privateKey: key as unknown as CryptoKey });
  }
  if (name === "auth/client-credentials-basic" && clientId !== undefined) {
    return clientCredentials({ clientId, clientSecret });
  }
  // SEP-1933: the platform's JWT (here handed over by the suite) as the JWT-bearer grant's assertion.
  if (name === "auth/wif-jwt-bearer" && clientId !== undefined) {
    return workloadIdentity({ clientId, token: () => String(context.valid_jwt) });
  }
  // SEP-990: the user's ID token from the IdP's single sign-on (here handed over by the suite).
  if (name === "auth/enterprise-managed-authorization" && clientId !== undefined) {
    return enterpriseAuth({
      idp: { tokenEndpoint: String(context.idp_token_endpoint), clientId: String(context.idp_client_id) },
      idToken: String(context.idp_id_token),
      clientId,
      clientSecret,
    });
  }
  return oauth({
    // RFC 9449: DPoP-bound tokens where the scenario's servers require them.
    dpop: name === "auth/dpop" || name === "auth/dpop-nonce",
    clientId,
    clientSecret,
    clientMetadataUrl: CLIENT_METADATA_URL,
    redirectUri: "http://127.0.0.1:3333/callback",
    onAuthorizationUrl: async (url) => {
      const response = await fetch(url, { redirect: "manual" });
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (location === null) throw new Error(`The authorization endpoint did not redirect (HTTP ${response.status})`);
      return new URL(location, url);
    },
  });
}

/** Arguments for a tool: a plain value for each required property. */
function sampleArguments(tool: ToolInfo): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: string }>; required?: string[] };
  const args: Record<string, unknown> = {};
  for (const key of schema.required ?? []) {
    const type = schema.properties?.[key]?.type;
    args[key] = type === "integer" || type === "number" ? 1 : type === "boolean" ? true : "us-west1";
  }
  return args;
}

async function main(): Promise<number> {
  const g = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
  const args = g.Deno?.args ?? g.process?.argv.slice(2) ?? [];
  const url = args.at(-1);
  const name = env("MCP_CONFORMANCE_SCENARIO");
  const scenario = name === undefined ? undefined : name.startsWith("auth/") ? authScenario : scenarios[name];
  if (url === undefined || scenario === undefined) {
    console.error(`usage: MCP_CONFORMANCE_SCENARIO=<${Object.keys(scenarios).join("|")}> conformance-client.ts <url>`);
    return 2;
  }
  const context = JSON.parse(env("MCP_CONFORMANCE_CONTEXT") ?? "{}") as Record<string, unknown>;
  const client = createClient(url, {
    transport: "mcp",
    auth: await authFor(name!, context),
    protocolVersion: env("MCP_CONFORMANCE_PROTOCOL_VERSION"),
    clientInfo: { name: "mcplite-conformance-client", version: "0.1.0" },
    timeoutMs: 20_000,
    // Accept every form as filled in; the client adds the schema's defaults for the missing fields.
    onElicit: (request: ElicitRequest) => ({ action: "accept", content: answers(request) }),
    onSample: () => ({ role: "assistant", content: { type: "text", text: "ok" }, model: "conformance" }),
    onRoots: () => [{ uri: "file:///tmp/conformance", name: "conformance" }],
    onWarning: (message) => console.error(`warning: ${message}`),
  });
  try {
    await scenario(client, context);
    return 0;
  } catch (error) {
    console.error(`${name} failed:`, error);
    return 1;
  } finally {
    await client.close();
  }
}

/** Fills a form's boolean fields with `true` (the MRTR scenario asks for a confirmation). */
function answers(request: ElicitRequest): Record<string, unknown> {
  const properties = (request.requestedSchema as { properties?: Record<string, { type?: string; default?: unknown }> })
    ?.properties ?? {};
  const content: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (property.type === "boolean" && property.default === undefined) content[key] = true;
  }
  return content;
}

const code = await main();
(globalThis as { process?: { exit(code: number): never } }).process?.exit(code);
(globalThis as { Deno?: { exit(code: number): never } }).Deno?.exit(code);
