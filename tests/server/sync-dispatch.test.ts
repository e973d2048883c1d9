/**
 * A tool whose handler answers synchronously is served without a promise between its body and its
 * answer (MCP-lite, MCP 2026-07-28 and 2025 as JSON): what a client and a server's owner see of it is
 * the same as for an asynchronous handler. Its answer, its failures (a thrown error, a `ProtocolError`,
 * a result its output schema refuses), request middleware's order around it, and the budgets it takes
 * and gives back, on every JSON wire; on Bun (whose bodies built in process are held at once) the
 * answer is ready before any microtask runs.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, type Middleware } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { CAN_PEEK } from "../../src/runtime/bun/peek.ts";
import { legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";

const input = v.object({ a: v.number(), b: v.number() });
const sum = v.object({ sum: v.number() });
const later = <T>(value: () => T) => Promise.resolve().then(value);

/** Each tool twice: answering at once, and through a promise. */
function tools() {
  const defined = [];
  for (const [suffix, wrap] of [["", <T>(f: () => T) => f()], ["_async", later]] as const) {
    defined.push(
      defineTool(`add${suffix}`).input(input).handle(({ a, b }) => wrap(() => ({ sum: a + b }))),
      defineTool(`boom${suffix}`).input(input).handle(() =>
        wrap(() => {
          throw new Error("boom");
        })
      ),
      defineTool(`refuse${suffix}`).input(input).handle(() =>
        wrap(() => {
          throw new ProtocolError(ErrorCode.PermissionDenied, "not for you");
        })
      ),
      defineTool(`checked${suffix}`).input(input).output(sum).handle(({ a }) =>
        wrap(() => ({ sum: String(a) } as unknown as { sum: number }))
      ),
    );
  }
  return defined;
}

function server(options: { limits?: { calls?: number }; middleware?: Middleware[] } = {}) {
  const made = createServer({ name: "sync", version: "1.0.0", limits: options.limits });
  for (const tool of tools()) made.tool(tool);
  for (const middleware of options.middleware ?? []) made.use(middleware);
  return made;
}

/** The three JSON wires, each a request for `tools/call` of `name`. */
const WIRES: Record<string, (name: string, args: unknown) => Request> = {
  "MCP-lite": (name, args) => post("/mcp-lite/v1/calltools", toolsCall(name, args)),
  "MCP 2026-07-28": (name, args) =>
    modernRequest("tools/call", { name, arguments: args }, 1, { accept: "application/json" }),
  "MCP 2025": (name, args) =>
    legacyRequest("tools/call", { name, arguments: args }, 1, "2025-11-25", { accept: "application/json" }),
};

/** A response as a client reads it, the clock's fields (MCP-lite's timestamp and processing time) left out. */
async function seen(response: Response): Promise<unknown> {
  const body = JSON.parse(
    await response.text(),
    (key, value) => key === "timestamp" || key === "processing_time_ms" ? undefined : value,
  );
  return { status: response.status, type: response.headers.get("content-type"), body };
}

const ARGS = { a: 1, b: 2 };

/** The request with its `Content-Length`, as a socket's request carries it (a body within it is read whole). */
async function sized(request: Request): Promise<Request> {
  const text = await request.text();
  const headers = new Headers(request.headers);
  headers.set("content-length", String(new TextEncoder().encode(text).byteLength));
  return new Request(request.url, { method: "POST", headers, body: text });
}

describe("synchronous dispatch", () => {
  for (const [wire, request] of Object.entries(WIRES)) {
    describe(wire, () => {
      for (const tool of ["add", "boom", "refuse", "checked"]) {
        it(`answers ${tool} as it answers its asynchronous twin`, async () => {
          const s = server();
          const sync = await seen(await s.fetch(request(tool, ARGS)));
          const async = await seen(await s.fetch(request(`${tool}_async`, ARGS)));
          const renamed = JSON.parse(JSON.stringify(async).replaceAll(`${tool}_async`, tool));
          assert.deepEqual(sync, renamed);
        });
      }

      it("runs request middleware around the handler, in order, for a synchronous tool", async () => {
        const order: string[] = [];
        const outer: Middleware = async (call, next) => {
          order.push(`outer in ${call.name}`);
          const outcome = await next();
          order.push("outer out");
          return outcome;
        };
        const inner: Middleware = (_call, next) => {
          order.push("inner in");
          return next().then((outcome) => (order.push("inner out"), outcome));
        };
        const logged = defineTool("logged").input(input).handle(({ a, b }) => (order.push("handler"), a + b));
        const s = server({ middleware: [outer, inner] }).tool(logged);
        const response = await s.fetch(request("logged", ARGS));
        assert.equal(response.status, 200);
        assert.match(await response.text(), /"text":"3"/);
        assert.deepEqual(order, ["outer in logged", "inner in", "handler", "inner out", "outer out"]);
      });

      it("lets request middleware refuse before a synchronous handler runs", async () => {
        let ran = false;
        const s = server({
          middleware: [() => {
            throw new ProtocolError(ErrorCode.Unauthenticated, "a key is required");
          }],
        }).tool(defineTool("ran").handle(() => (ran = true, "ran")));
        const response = await s.fetch(request("ran", {}));
        assert.equal(response.status, 401);
        assert.equal(ran, false);
      });

      it("gives the call and its body bytes back to the budgets as soon as it answers", async () => {
        const s = server({ limits: { calls: 1 } });
        for (let i = 0; i < 3; i++) assert.equal((await s.fetch(request("add", ARGS))).status, 200);
        for (let i = 0; i < 3; i++) assert.equal((await s.fetch(request("boom", ARGS))).status, 200);
        // Held by an asynchronous call, the one call the budget allows refuses a synchronous one.
        let release!: () => void;
        const gate = new Promise<void>((resolve) => release = resolve);
        s.tool(defineTool("held").handle(async () => (await gate, "held")));
        const held = s.fetch(request("held", {}));
        await new Promise((resolve) => setTimeout(resolve, 10));
        const refused = await s.fetch(request("add", ARGS));
        assert.ok(refused.status === 429 || refused.status === 503, `status ${refused.status}`);
        assert.ok(refused.headers.has("retry-after"));
        release();
        assert.equal((await held).status, 200);
        assert.equal((await s.fetch(request("add", ARGS))).status, 200);
      });

      it("answers a synchronous tool before any microtask runs where the body is held at once (Bun)", {
        skip: !CAN_PEEK,
      }, async () => {
        const s = server();
        const response = s.fetch(await sized(request("add", ARGS)));
        const first = await Promise.race([response, Promise.resolve("a microtask later")]);
        assert.ok(first instanceof Response, String(first));
        // An asynchronous handler still answers, later.
        const pending = s.fetch(await sized(request("add_async", ARGS)));
        assert.equal(await Promise.race([pending, Promise.resolve("later")]), "later");
        assert.equal((await pending).status, 200);
      });
    });
  }
});
