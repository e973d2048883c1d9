/**
 * The server card (SEP-2127, draft): every server `createServer()` builds serves it, unless told not to,
 * at `/.well-known/mcp/server-card.json` and `<MCP endpoint>/server-card`, valid against the draft's
 * schema, with a strong ETag and 304, CORS for any origin, its media type and an hour of caching, on
 * the runtime running the test and on Node 22. The schema is pinned in `fixtures/server-card.schema.json`:
 * github.com/modelcontextprotocol/experimental-ext-server-card, `schema.json` at commit 8924e08 of
 * 2026-07-24 (the repository that carries SEP-2127, PR modelcontextprotocol/modelcontextprotocol#2127).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { createServer, serve } from "../../mod.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT, run } from "../helpers/process.ts";
import { protectedResource } from "../../src/auth/mod.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const CARD_SCHEMA = JSON.parse(readFileSync(new URL("./fixtures/server-card.schema.json", import.meta.url), "utf8"));
const ajv = new Ajv2020({ strict: false });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
ajv.addSchema(CARD_SCHEMA, "card");
const validCard = ajv.getSchema("card#/$defs/ServerCard")!;

const ICON = { src: "https://weather.example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] };

function weather(options: Record<string, unknown> = {}) {
  return createServer({
    name: "weather",
    version: "1.2.0",
    title: "Weather",
    description: "Forecasts and alerts",
    icons: [ICON],
    websiteUrl: "https://weather.example.com",
    ...options,
  });
}

describe("the server card", () => {
  it("answers at /.well-known/mcp/server-card.json and /mcp/server-card with a card the draft's schema accepts", async () => {
    const server = weather({ serverCard: { name: "com.example/weather" } });
    for (const path of ["/.well-known/mcp/server-card.json", "/mcp/server-card"]) {
      const response = await server.fetch(new Request(`http://localhost${path}`));
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("content-type"), "application/mcp-server-card+json");
      assert.equal(response.headers.get("cache-control"), "private, max-age=3600"); // from Host: see below
      assert.equal(response.headers.get("vary"), "Host");
      const card = await response.json();
      assert.ok(validCard(card), JSON.stringify(validCard.errors));
      assert.deepEqual(card, {
        $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
        name: "com.example/weather",
        version: "1.2.0",
        description: "Forecasts and alerts",
        title: "Weather",
        websiteUrl: "https://weather.example.com",
        icons: [ICON],
        remotes: [{
          type: "streamable-http",
          url: "http://localhost/mcp",
          supportedProtocolVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
        }],
      });
    }
  });

  it("names the server in reverse-DNS form from its host when its name is not, and still validates", async () => {
    const server = weather({ allowedHosts: ["weather.example.com"] });
    const response = await server.fetch(new Request("https://weather.example.com/.well-known/mcp/server-card.json"));
    const card = await response.json();
    assert.equal(card.name, "com.example.weather/weather");
    assert.equal(card.remotes[0].url, "https://weather.example.com/mcp");
    assert.ok(validCard(card), JSON.stringify(validCard.errors));
  });

  it("answers 304 to If-None-Match with its strong ETag, and 200 again when the tag is another", async () => {
    const server = weather();
    const first = await server.fetch(new Request("http://localhost/.well-known/mcp/server-card.json"));
    const etag = first.headers.get("etag")!;
    assert.match(etag, /^"[\w-]{22}"$/, "a strong tag");
    const again = await server.fetch(
      new Request("http://localhost/mcp/server-card", { headers: { "if-none-match": etag } }),
    );
    assert.equal(again.status, 304);
    assert.equal(again.headers.get("etag"), etag);
    assert.equal(await again.text(), "");
    const other = await server.fetch(
      new Request("http://localhost/mcp/server-card", { headers: { "if-none-match": '"0000"' } }),
    );
    assert.equal(other.status, 200);
    assert.equal((await other.json()).version, "1.2.0");
  });

  it("answers any origin's GET and preflight (CORS), where the MCP endpoint refuses that origin", async () => {
    const server = weather();
    const origin = { origin: "https://elsewhere.example" };
    const card = await server.fetch(new Request("http://localhost/mcp/server-card", { headers: origin }));
    assert.equal(card.status, 200);
    assert.equal(card.headers.get("access-control-allow-origin"), "*");
    assert.equal(card.headers.get("access-control-expose-headers"), "ETag");
    const preflight = await server.fetch(
      new Request("http://localhost/.well-known/mcp/server-card.json", { method: "OPTIONS", headers: origin }),
    );
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get("access-control-allow-methods")!, /GET/);
    assert.match(preflight.headers.get("access-control-allow-headers")!, /If-None-Match/);
    const post = await server.fetch(new Request("http://localhost/mcp/server-card", { method: "POST", body: "{}" }));
    assert.equal(post.status, 405);
    const mcp = await server.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...origin, "content-type": "application/json" },
        body: "{}",
      }),
    );
    assert.equal(mcp.status, 403, "the gate still guards the MCP endpoint");
  });

  it("serves a protected server's card without a token, at its resource's origin, naming the header to send", async () => {
    const server = weather({
      auth: protectedResource({
        resource: "https://mcp.example.com/mcp",
        authorizationServers: ["https://auth.example.com"],
        verify: () => undefined,
      }),
    });
    const response = await server.fetch(new Request("http://10.0.0.5:8080/.well-known/mcp/server-card.json"));
    assert.equal(response.status, 200);
    const card = await response.json();
    assert.ok(validCard(card), JSON.stringify(validCard.errors));
    assert.equal(card.name, "com.example.mcp/weather");
    assert.equal(card.remotes[0].url, "https://mcp.example.com/mcp");
    const [header] = card.remotes[0].headers;
    assert.equal(header.name, "Authorization");
    assert.equal(header.isRequired, true);
    assert.equal(header.isSecret, true);
    assert.match(header.description, /https:\/\/mcp\.example\.com\/\.well-known\/oauth-protected-resource\/mcp/);
    const mcp = await server.fetch(new Request("http://localhost/mcp", { method: "POST", body: "{}" }));
    assert.equal(mcp.status, 401, "the endpoint itself still needs a token");
  });

  it("follows basePath and the origin given, and carries repository and _meta", async () => {
    const server = weather({
      basePath: "/api",
      serverCard: {
        name: "com.example/weather",
        origin: "https://api.example.com",
        repository: { url: "https://github.com/example/weather", source: "github" },
        _meta: { "com.example/tier": "free" },
      },
    });
    assert.equal((await server.fetch(new Request("http://localhost/mcp/server-card"))).status, 404);
    const card = await (await server.fetch(new Request("http://localhost/api/mcp/server-card"))).json();
    assert.equal(card.remotes[0].url, "https://api.example.com/api/mcp");
    assert.deepEqual(card.repository, { url: "https://github.com/example/weather", source: "github" });
    assert.deepEqual(card._meta, { "com.example/tier": "free" });
    assert.ok(validCard(card), JSON.stringify(validCard.errors));
  });

  it("unpinned, names only the hosts allowedHosts lets in, and keeps out of shared caches (Vary: Host, private)", async () => {
    const card = (server: ReturnType<typeof weather>, host: string, headers: Record<string, string> = {}) =>
      server.fetch(new Request(`http://${host}/.well-known/mcp/server-card.json`, { headers }));
    // The default guard (loopback names): a forged Host gets no card naming it, whatever the Origin.
    for (const headers of [{}, { origin: "https://evil.example" }] as Record<string, string>[]) {
      const refused = await card(weather(), "evil.example", headers);
      assert.equal(refused.status, 403);
      assert.doesNotMatch(await refused.text(), /http:\/\/evil\.example\/mcp/);
      assert.equal(refused.headers.get("vary"), "Host");
    }
    // Every host allowed: the card follows Host, but only the client's own cache may keep it (RFC 9111 §5.2.2.7, §4.1).
    const open = weather({ allowedHosts: "*" });
    const reflected = await card(open, "evil.example");
    assert.equal(reflected.status, 200);
    assert.equal((await reflected.json()).remotes[0].url, "http://evil.example/mcp");
    assert.equal(reflected.headers.get("cache-control"), "private, max-age=3600");
    assert.equal(reflected.headers.get("vary"), "Host");
    const again = await card(open, "evil.example", { "if-none-match": reflected.headers.get("etag")! });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get("vary"), "Host", "a 304 carries the Vary its 200 would (RFC 9110 §15.4.5)");
    const preflight = await open.fetch(
      new Request("http://evil.example/mcp/server-card", {
        method: "OPTIONS",
        headers: { origin: "https://a.example" },
      }),
    );
    assert.equal(preflight.headers.get("vary"), "Host");
  });

  it("pinned, names its own origin at any Host and is public for an hour, without Vary", async () => {
    for (
      const server of [
        weather({ serverCard: { origin: "https://weather.example.com" } }),
        weather({ serverCard: { origin: "https://weather.example.com" }, allowedHosts: "*" }),
      ]
    ) {
      const response = await server.fetch(new Request("http://evil.example/.well-known/mcp/server-card.json"));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("cache-control"), "public, max-age=3600");
      assert.equal(response.headers.get("vary"), null);
      const body = await response.text();
      assert.doesNotMatch(body, /evil/);
      assert.equal(JSON.parse(body).remotes[0].url, "https://weather.example.com/mcp");
    }
  });

  it("is not served with serverCard: false, and a malformed name or origin fails at creation", async () => {
    const off = weather({ serverCard: false });
    assert.equal((await off.fetch(new Request("http://localhost/.well-known/mcp/server-card.json"))).status, 404);
    assert.throws(() => weather({ serverCard: { name: "no slash" } }), /name must be reverse-DNS/);
    assert.throws(() => weather({ serverCard: { origin: "https://api.example.com/path" } }), /origin an origin/);
  });

  it("answers over a real socket with ETag and 304 on this runtime", async () => {
    const listener = await serve(weather(), { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const url = `${listener.url}/.well-known/mcp/server-card.json`;
      const first = await fetch(url);
      assert.equal(first.status, 200);
      assert.equal((await first.json()).remotes[0].url, `${listener.url}/mcp`);
      const second = await fetch(url, { headers: { "if-none-match": first.headers.get("etag")! } });
      assert.equal(second.status, 304);
      await second.body?.cancel();
    } finally {
      await listener.close();
    }
  });

  it("answers over a real socket with ETag and 304 on Node 22", { skip: ONCE_PER_RUN }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    const script = join(scratchDir("mcplite-card-"), "card.ts");
    writeFileSync(
      script,
      `import { createServer, serve } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
        `const server = createServer({ name: "weather", version: "1.2.0", description: "Forecasts" });\n` +
        `const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });\n` +
        `const url = listener.url + "/.well-known/mcp/server-card.json";\n` +
        `const first = await fetch(url);\n` +
        `const card = await first.json();\n` +
        `const second = await fetch(url, { headers: { "if-none-match": first.headers.get("etag") } });\n` +
        `console.log(JSON.stringify({ status: first.status, type: first.headers.get("content-type"), ` +
        `etag: first.headers.get("etag"), card, again: second.status }));\n` +
        `await listener.close();\n`,
    );
    const { code, stdout, stderr } = await run(node, [script], 20_000);
    assert.equal(code, 0, stderr);
    const seen = JSON.parse(stdout);
    assert.equal(seen.status, 200);
    assert.equal(seen.type, "application/mcp-server-card+json");
    assert.match(seen.etag, /^"[\w-]{22}"$/);
    assert.equal(seen.again, 304);
    assert.equal(seen.card.description, "Forecasts");
    assert.ok(validCard(seen.card), JSON.stringify(validCard.errors));
  });
});
