/**
 * URL-mode elicitation (MCP 2025-11-25, Elicitation: URL mode; 2026-07-28 through input requests) from
 * the official clients over a real socket: the v1 client (2025-11-25), the v2 client in its legacy mode
 * (2025-11-25) and pinned to 2026-07-28. `ctx.elicit()` in URL mode reaches the client's handler typed as
 * URL mode, `ctx.completeElicitation()` its completion notification (2025-11-25 only), a thrown
 * `UrlElicitationRequiredError` is `-32042` on 2025-11-25 and an input round on 2026-07-28, and a client
 * that declared only forms gets `-32021` naming `elicitation.url`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import {
  Client as ClientV2,
  ProtocolError as ProtocolErrorV2,
  StreamableHTTPClientTransport as TransportV2,
} from "@modelcontextprotocol/client";
import { createServer, defineTool, serve } from "../../../mod.ts";
import { UrlElicitationRequiredError } from "../../../src/errors/mod.ts";
import type { Listener } from "../../../src/types.ts";
import { waitFor } from "../../helpers/long-running.ts";

// Loaded by a computed specifier, as tests/bindings/mcp/official-clients.test.ts explains.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};
const { ElicitRequestSchema, ElicitationCompleteNotificationSchema, McpError } = await import(`${V1}/types.js`) as {
  ElicitRequestSchema: Parameters<ClientV1["setRequestHandler"]>[0];
  ElicitationCompleteNotificationSchema: Parameters<ClientV1["setNotificationHandler"]>[0];
  McpError: new (...args: never[]) => Error & { code: number; data?: unknown };
};

/** Flows the user finished "in the browser": the test marks them, as a sign-in callback would. */
const finished = new Set<string>();

const server = createServer({ name: "url-elicitation", version: "1.0.0" })
  .tool(
    defineTool("sign_in").describe("Signs in").handle(async (_args, ctx) => {
      const answer = await ctx.elicit("signin", {
        mode: "url",
        url: "https://auth.example.com/authorize?client=demo",
        message: "Sign in to Example",
      });
      if (answer.action !== "accept") return `not signed in (${answer.action})`;
      ctx.completeElicitation(answer.elicitationId);
      return `signed in, flow ${answer.elicitationId}`;
    }),
  )
  .tool(
    defineTool("calendar").describe("Reads the calendar").handle((_args, ctx) => {
      const flow = `flow-${ctx.client.info?.name}`;
      if (!finished.has(flow)) {
        throw new UrlElicitationRequiredError([
          {
            message: "Connect your calendar",
            url: `https://auth.example.com/connect?state=${flow}`,
            elicitationId: flow,
          },
        ]);
      }
      return "3 meetings today";
    }),
  )
  .tool(
    defineTool("contacts").describe("Reads the contacts").handle(() => {
      // The user never finishes this flow.
      throw new UrlElicitationRequiredError([
        {
          message: "Connect your contacts",
          url: "https://auth.example.com/connect?state=never",
          elicitationId: "never",
        },
      ]);
    }),
  );

let listener: Listener;
before(async () => listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true }));
after(async () => await listener.close());

/** What a test saw of the elicitations its client received. */
interface Seen {
  requests: Record<string, unknown>[];
  completed: string[];
}

async function v1Client(name: string, seen: Seen, modes: Record<string, unknown>): Promise<ClientV1> {
  const client = new ClientV1({ name, version: "1.32.2" }, { capabilities: { elicitation: modes } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    const params = (request as { params: Record<string, unknown> }).params;
    seen.requests.push(params);
    if (typeof params.elicitationId === "string") finished.add(params.elicitationId);
    return { action: "accept" };
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    seen.completed.push((notification as { params: { elicitationId: string } }).params.elicitationId);
  });
  await client.connect(new TransportV1(new URL(`${listener.url}/mcp`)));
  return client;
}

async function v2Client(name: string, seen: Seen, pin: boolean): Promise<ClientV2> {
  const client = new ClientV2(
    { name, version: "2.4.0" },
    {
      capabilities: { elicitation: { form: {}, url: {} } },
      ...(pin ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    },
  );
  client.setRequestHandler("elicitation/create", (request) => {
    const params = request.params as Record<string, unknown>;
    seen.requests.push(params);
    finished.add(`flow-${name}`); // the user completes the flow in the browser before the client retries
    return { action: "accept" };
  });
  client.setNotificationHandler("notifications/elicitation/complete", (notification) => {
    seen.completed.push(notification.params.elicitationId);
  });
  await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
  return client;
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0].text;
}

describe("URL elicitation from the official v1 client (2025-11-25)", () => {
  it("opens the page, answers accept, and gets the completion notification for the same id", async () => {
    const seen: Seen = { requests: [], completed: [] };
    const client = await v1Client("v1", seen, { form: {}, url: {} });
    try {
      const text = textOf(await client.callTool({ name: "sign_in", arguments: {} }));
      assert.equal(seen.requests.length, 1);
      const [request] = seen.requests;
      assert.equal(request.mode, "url");
      assert.equal(request.url, "https://auth.example.com/authorize?client=demo");
      assert.equal(request.message, "Sign in to Example");
      assert.match(String(request.elicitationId), /^[0-9a-f-]{36}$/);
      assert.equal(text, `signed in, flow ${request.elicitationId}`);
      await waitFor(() => seen.completed.length === 1);
      assert.deepEqual(seen.completed, [request.elicitationId]);
    } finally {
      await client.close();
    }
  });

  it("gets UrlElicitationRequiredError (-32042) with the elicitations, and succeeds once the flow is done", async () => {
    const seen: Seen = { requests: [], completed: [] };
    const client = await v1Client("v1-required", seen, { url: {} });
    try {
      const error = await client.callTool({ name: "calendar", arguments: {} }).then(
        () => assert.fail("expected -32042"),
        (error: unknown) => error,
      );
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -32042);
      assert.deepEqual(error.data, {
        elicitations: [{
          mode: "url",
          message: "Connect your calendar",
          url: "https://auth.example.com/connect?state=flow-v1-required",
          elicitationId: "flow-v1-required",
        }],
      });
      finished.add("flow-v1-required"); // the user went through the page
      assert.equal(textOf(await client.callTool({ name: "calendar", arguments: {} })), "3 meetings today");
    } finally {
      await client.close();
    }
  });

  it("refuses a URL elicitation to a client that declared only forms: -32021 naming elicitation.url", async () => {
    const seen: Seen = { requests: [], completed: [] };
    const client = await v1Client("v1-forms", seen, {});
    try {
      for (const tool of ["sign_in", "calendar"]) {
        const error = await client.callTool({ name: tool, arguments: {} }).then(
          () => assert.fail("expected -32021"),
          (error: unknown) => error as { code: number; data: { requiredCapabilities: unknown } },
        );
        assert.equal(error.code, -32021, tool);
        assert.deepEqual(error.data.requiredCapabilities, { elicitation: { url: {} } }, tool);
      }
      assert.equal(seen.requests.length, 0, "nothing was asked");
    } finally {
      await client.close();
    }
  });
});

describe("URL elicitation from the official v2 client", () => {
  it("in its legacy mode (2025-11-25): the request, then the completion notification", async () => {
    const seen: Seen = { requests: [], completed: [] };
    const client = await v2Client("v2-legacy", seen, false);
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2025-11-25");
      const text = textOf(await client.callTool({ name: "sign_in", arguments: {} }));
      const [request] = seen.requests;
      assert.equal(request.mode, "url");
      assert.equal(text, `signed in, flow ${request.elicitationId}`);
      await waitFor(() => seen.completed.length === 1);
      assert.deepEqual(seen.completed, [request.elicitationId]);
    } finally {
      await client.close();
    }
  });

  it("pinned to 2026-07-28: an input request in URL mode, without elicitationId, then the result", async () => {
    const seen: Seen = { requests: [], completed: [] };
    const client = await v2Client("v2-modern", seen, true);
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      const text = textOf(await client.callTool({ name: "sign_in", arguments: {} }));
      assert.deepEqual(seen.requests, [{
        mode: "url",
        url: "https://auth.example.com/authorize?client=demo",
        message: "Sign in to Example",
      }]);
      assert.match(text, /^signed in, flow [0-9a-f-]{36}$/);
      assert.deepEqual(seen.completed, [], "2026-07-28 has no completion notification");
    } finally {
      await client.close();
    }
  });

  it("pinned to 2026-07-28: a page answered and still required is asked once, then a tool failure", async () => {
    const seen: Seen = { requests: [], completed: [] };
    const client = await v2Client("v2-never", seen, true);
    try {
      const result = await client.callTool({ name: "contacts", arguments: {} }) as { isError?: boolean };
      assert.equal(seen.requests.length, 1, "asked once: an answered page is not asked again, round after round");
      assert.equal(result.isError, true);
      assert.match(
        textOf(result),
        /Connect your contacts \(https:\/\/auth\.example\.com\/connect\?state=never\)\. Call again once it is done\.$/,
      );
    } finally {
      await client.close();
    }
  });

  it("pinned to 2026-07-28: a thrown UrlElicitationRequiredError is an input round, not -32042", async () => {
    const seen: Seen = { requests: [], completed: [] };
    const client = await v2Client("v2-required", seen, true);
    try {
      assert.equal(textOf(await client.callTool({ name: "calendar", arguments: {} })), "3 meetings today");
      assert.deepEqual(seen.requests, [{
        mode: "url",
        url: "https://auth.example.com/connect?state=flow-v2-required",
        message: "Connect your calendar",
      }]);
    } catch (error) {
      assert.ok(!(error instanceof ProtocolErrorV2), `no protocol error expected, got ${error}`);
      throw error;
    } finally {
      await client.close();
    }
  });
});
