/**
 * Declared work that waits for the outside world, in process (no queue): `work.waitFor()` answered by
 * `server.signal()` and by a POST (a real `fetch` over a listener on 127.0.0.1) to `work.signalUrl()`; a signal sent
 * before the wait kept; one signal per name; a timeout the work catches; forged, expired and replayed URLs refused,
 * a body too large or not JSON refused; a payload its schema refuses. The queued forms: tests/bullmq/signals.test.ts.
 */
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import {
  type CallOutcome,
  createMemoryResultStore,
  createServer,
  defineTool,
  serve,
  type ServerOptions,
  signals,
} from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { WaitTimeoutError } from "../../src/errors/mod.ts";
import { protectedResource } from "../../src/auth/mod.ts";
import { answered, ended, failedWith, redeemedWithin } from "../helpers/outcome.ts";
import { legacyRequest, post, toolsCall } from "../helpers/request.ts";
import { waitFor } from "../helpers/wait.ts";

const SECRET = "signals' secret: thirty-two bytes or more, surely";

/** The signal URLs the work made, by the call's `n`, and a wait on one. */
const urls = new Map<number, string>();
const made = new Map<number, () => void>();
function urlOf(n: number): Promise<string> {
  if (urls.has(n)) return Promise.resolve(urls.get(n)!);
  return new Promise((resolve) => made.set(n, () => resolve(urls.get(n)!)));
}
/** What a call's step before the wait waits for, by the call's `n`, where a test holds it there. */
const gates = new Map<number, Promise<void>>();
/** How many times each call's step before the wait ran. */
const asked = new Map<number, number>();

const approval = v.object({ by: v.string() });

function makeServer(publicUrl?: string, options: Partial<ServerOptions> = {}) {
  return createServer({
    name: "signals",
    version: "1.0.0",
    secret: SECRET,
    signals: signals({ publicUrl, maxBodyBytes: 1_024 }),
    ...options,
  })
    .tool(
      defineTool("approve").describe("Asks, waits for an approval, answers who approved")
        .input(v.object({ n: v.number(), timeoutMs: v.optional(v.number(), 20_000), ttlMs: v.optional(v.number()) }))
        .longRunning({ ttlMs: 60_000 })
        .defer(async ({ n, timeoutMs, ttlMs }, work) => {
          await work.step("ask", async () => {
            asked.set(n, (asked.get(n) ?? 0) + 1);
            urls.set(n, await work.signalUrl("approved", ttlMs === undefined ? {} : { ttlMs }));
            made.get(n)?.();
            await gates.get(n);
          });
          try {
            const { by } = await work.waitFor("approved", { timeoutMs, schema: approval });
            return { n, by, job: work.jobId };
          } catch (error) {
            if (error instanceof WaitTimeoutError) return { n, by: `nobody in ${error.timeoutMs} ms`, job: work.jobId };
            throw error;
          }
        }),
    );
}

/** The job id of a promise outcome. */
function jobOf(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "promise", JSON.stringify(outcome));
  return (outcome as Extract<CallOutcome, { kind: "promise" }>).entry!;
}

describe("work.waitFor() in process", () => {
  it("is answered by server.signal(), once; a signal before the wait is kept", async () => {
    const server = makeServer("https://api.example.com");
    const first = await server.call("approve", { n: 1 });
    const job = jobOf(first);
    await urlOf(1);
    assert.equal(await server.signal(job, "approved", { by: "ada" }), "taken");
    assert.equal(await server.signal(job, "approved", { by: "bob" }), "signalled");
    assert.deepEqual(answered(await ended(server, first)), { n: 1, by: "ada", job });
    assert.equal(await server.signal(job, "approved", { by: "eve" }), "signalled"); // after the job's end too
    assert.equal(await server.signal("no-such-job", "approved", {}), "ended");
    assert.equal(asked.get(1), 1);
    assert.match(urls.get(1)!, /^https:\/\/api\.example\.com\/signals\/[\w.~-]+$/);
  });

  it("answers at once a signal that came before the wait", async () => {
    let release!: () => void;
    const told = new Promise<void>((resolve) => release = resolve);
    const server = createServer({ name: "early", version: "1.0.0", secret: SECRET, signals: signals() }).tool(
      defineTool("late").describe("Waits for a signal once told").input(v.object({})).longRunning()
        .defer(async (_, work) => {
          await work.step("told", () => told); // the signal comes meanwhile
          return await work.waitFor("go", { timeoutMs: 20_000 });
        }),
    );
    const first = await server.call("late", {});
    assert.equal(await server.signal(jobOf(first), "go", { at: "once" }), "taken");
    release();
    assert.deepEqual(answered(await ended(server, first)), { at: "once" });
  });

  it("ends a wait nobody answers with a WaitTimeoutError the work catches; a later signal is refused", async () => {
    const server = makeServer("https://api.example.com");
    const first = await server.call("approve", { n: 2, timeoutMs: 100 });
    const job = jobOf(first);
    assert.deepEqual(answered(await ended(server, first)), { n: 2, by: "nobody in 100 ms", job });
    assert.equal(await server.signal(job, "approved", { by: "ada" }), "timed_out");
  });

  it("fails the job at once on a timeout the work lets go: final, not retried", async () => {
    const seen: number[] = [];
    const server = createServer({ name: "strict", version: "1.0.0", secret: SECRET, signals: signals() }).tool(
      defineTool("strict").describe("Waits, not catching its timeout").input(v.object({}))
        .longRunning({ retry: { attempts: 3 } })
        .defer(async (_, work) => {
          seen.push(work.attempt);
          return await work.waitFor("approved", { timeoutMs: 100 });
        }),
    );
    const first = await server.call("strict", {});
    assert.match(failedWith(await ended(server, first)), /No signal "approved" came within 100 ms/);
    assert.deepEqual([...new Set(seen)], [1]);
  });

  it("takes a payload sent before its wait began, and fails the job when the wait's schema refuses it", async () => {
    const server = makeServer("https://api.example.com");
    let open = () => {};
    gates.set(3, new Promise<void>((resolve) => open = resolve));
    const first = await server.call("approve", { n: 3 });
    await urlOf(3);
    // The wait has not begun (its step before is held): nothing says the payload's shape yet.
    assert.equal(await server.signal(jobOf(first), "approved", { by: 7 }), "taken");
    open();
    assert.match(failedWith(await ended(server, first)), /signal "approved" has a payload its schema refuses/);
  });

  it("serves its URLs on a server with auth without a token (the URL is the credential); the rest still asks one", async () => {
    const server = createServer({
      name: "guarded",
      version: "1.0.0",
      secret: SECRET,
      signals: signals({ publicUrl: "http://localhost" }),
      auth: protectedResource({
        resource: "http://localhost",
        authorizationServers: ["https://auth.example.com"],
        verify: (token) => (token === "good" ? { subject: "ada", scopes: [] } : undefined),
      }),
    }).tool(
      defineTool("wait").describe("Waits for go").input(v.object({})).longRunning().defer(async (_, work) => {
        await work.step("url", async () => {
          urls.set(-2, await work.signalUrl("go"));
          made.get(-2)?.();
        });
        return await work.waitFor("go", { timeoutMs: 20_000 });
      }),
    );
    const first = await server.call("wait", {});
    const url = await urlOf(-2);
    const posted = await server.fetch(new Request(url, { method: "POST", body: '{"go":true}' }));
    assert.equal(posted.status, 202, await posted.text());
    assert.deepEqual(answered(await ended(server, first)), { go: true });
    const listed = await server.fetch(
      new Request("http://localhost/mcp-lite/v1/listtools", { method: "POST", body: "{}" }),
    );
    assert.equal(listed.status, 401);
  });

  it("refuses a payload its server-wide schema refuses: a POST 400, server.signal() a TypeError; the wait's default", async () => {
    const server = createServer({
      name: "schemas",
      version: "1.0.0",
      secret: SECRET,
      signals: signals({
        publicUrl: "http://localhost",
        schemas: { go: v.pipe(v.object({ by: v.string() }), v.transform(({ by }) => ({ by: by.toUpperCase() }))) },
      }),
    }).tool(
      defineTool("wait").describe("Waits for go").input(v.object({})).longRunning().defer(async (_, work) => {
        await work.step("url", async () => {
          urls.set(-3, await work.signalUrl("go"));
          made.get(-3)?.();
        });
        return await work.waitFor("go", { timeoutMs: 20_000 }); // the server's schema: its output
      }),
    );
    const first = await server.call("wait", {});
    const url = await urlOf(-3);
    const refused = await server.fetch(new Request(url, { method: "POST", body: '{"by":7}' }));
    assert.equal(refused.status, 400, await refused.text());
    await assert.rejects(server.signal(jobOf(first), "go", { by: 7 }), /the payload of "go" is refused/);
    const posted = await server.fetch(new Request(url, { method: "POST", body: '{"by":"ada"}' }));
    assert.equal(posted.status, 202, await posted.text());
    assert.deepEqual(answered(await ended(server, first)), { by: "ADA" });
  });

  it("checks a POST against the schema its wait declared, on an instance that never ran the work: 400, the job waits", async () => {
    // Two instances of one server on one store: the job runs where it runs, the approver's POST reaches the other,
    // which knows the payload's shape only from the wait's record in the job's journal (its JSON Schema).
    const store = createMemoryResultStore();
    const instance = () =>
      createServer({
        name: "shapes",
        version: "1.0.0",
        secret: SECRET,
        resultStore: store,
        signals: signals({ publicUrl: "http://localhost" }),
      }).tool(
        defineTool("wait").describe("Waits for an approval").input(v.object({})).longRunning().defer(
          async (_, work) => {
            await work.step("url", async () => {
              urls.set(-4, await work.signalUrl("approved"));
              made.get(-4)?.();
            });
            return await work.waitFor("approved", {
              timeoutMs: 20_000,
              schema: v.object({ by: v.string(), level: v.picklist(["low", "high"]) }),
            });
          },
        ),
      );
    const [a, b] = [instance(), instance()];
    try {
      const first = await a.call("wait", {});
      const job = jobOf(first);
      const url = await urlOf(-4);
      // The wait records its shape as it begins (a POST before that is taken, and the wait checks it): its entry then
      // says what it waits for.
      await waitFor(async () => ((await store.get(job)) as { waiting?: string } | undefined)?.waiting !== undefined);
      const wrong = await b.fetch(new Request(url, { method: "POST", body: '{"by":"ada","level":"urgent"}' }));
      assert.equal(wrong.status, 400, await wrong.clone().text());
      assert.match((await wrong.json()).message, /payload is refused/);
      const refused = await b.fetch(new Request(url, { method: "POST", body: '{"by":7,"level":"low"}' }));
      assert.equal(refused.status, 400, await refused.text());
      await assert.rejects(b.signal(job, "approved", { by: "ada" }), /the payload of "approved" is refused/);
      // Nothing was taken: the job still waits, and the right payload ends it.
      const posted = await b.fetch(new Request(url, { method: "POST", body: '{"by":"ada","level":"high"}' }));
      assert.equal(posted.status, 202, await posted.text());
      assert.deepEqual(answered(await ended(a, first)), { by: "ada", level: "high" });
    } finally {
      await a.drain();
      await b.drain();
    }
  });

  it("without signals(): server.signal() refused naming the fix; a wait or a URL fails the job so, on MCP and MCP-lite", async () => {
    const plain = createServer({ name: "plain", version: "1.0.0", secret: SECRET })
      .tool(
        defineTool("wait").describe("Waits for go").input(v.object({})).longRunning()
          .defer(async (_, work) => await work.waitFor("go", { timeoutMs: 20_000 })),
      )
      .tool(
        defineTool("url").describe("Makes a signal URL").input(v.object({})).longRunning()
          .defer(async (_, work) => await work.signalUrl("go")),
      );
    const fix = /createServer\(\{ signals: signals\(\) \}\)/;
    await assert.rejects(plain.signal("job", "approved", {}), (error: Error) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, /^server\.signal\(\) needs /);
      return fix.test(error.message);
    });
    // In process: the job fails with the message, a tool's failure (isError), not a protocol error.
    assert.match(
      failedWith(await ended(plain, await plain.call("wait", {}))),
      /^work\.waitFor\(\) needs .*signals\(\)/,
    );
    assert.match(failedWith(await ended(plain, await plain.call("url", {}))), fix);
    // MCP (a client without tasks: the call is held until the job ends): the tool's failure.
    const held = await (await plain.fetch(legacyRequest("tools/call", { name: "wait", arguments: {} }))).json();
    assert.equal(held.result?.isError, true, JSON.stringify(held));
    assert.match(held.result.content[0].text, fix);
    // MCP-lite: a promise, whose redeem answers the tool's failure.
    const lite = await (await plain.fetch(post("/mcp-lite/v1/calltools", toolsCall("wait", {})))).json();
    const token = lite.result._meta.promise_token;
    assert.equal((await redeemedWithin(plain, token, 30_000)).kind, "failure");
    const redeemed = await (await plain.fetch(post("/mcp-lite/v1/calltools", toolsCall("redeem", { promise: token }))))
      .json();
    assert.equal(redeemed.result?.isError, true, JSON.stringify(redeemed));
    assert.match(redeemed.result.content[0].text, fix);
  });
});

describe("work.signalUrl() over HTTP", () => {
  let listener: Listener | undefined;
  let server: ReturnType<typeof makeServer>;
  before(async () => {
    // The listener first (its port is the URL's), the server behind it.
    listener = await serve({ fetch: (request: Request) => server.fetch(request) }, {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
    });
    server = makeServer(listener.url);
  });
  after(async () => await listener?.close());

  const post = (url: string, body: string) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });

  it("answers 202 once to a POST (curl -X POST), then 409; the job answers the payload", async () => {
    const first = await server.call("approve", { n: 10 });
    const url = await urlOf(10);
    assert.ok(url.startsWith(`${listener!.url}/signals/`), url);
    const taken = await post(url, JSON.stringify({ by: "ada" }));
    assert.equal(taken.status, 202, await taken.text());
    const again = await post(url, JSON.stringify({ by: "bob" }));
    assert.equal(again.status, 409, await again.text());
    assert.deepEqual(answered(await ended(server, first)), { n: 10, by: "ada", job: jobOf(first) });
    const late = await post(url, JSON.stringify({ by: "eve" }));
    assert.equal(late.status, 409, await late.text()); // replayed after the job ended, too
  });

  it("refuses a forged URL (403), another token kind (403), a GET (405), a body not JSON (400) or too large (413)", async () => {
    const first = await server.call("approve", { n: 11 });
    const url = await urlOf(11);
    const token = url.slice(url.lastIndexOf("/") + 1);
    const flipped = token.slice(0, -2) + (token.at(-2) === "A" ? "B" : "A") + token.at(-1);
    const forged = await post(`${listener!.url}/signals/${flipped}`, "{}");
    assert.equal(forged.status, 403, await forged.text());
    const promise = await post(`${listener!.url}/signals/${(first as { token: string }).token}`, "{}");
    assert.equal(promise.status, 403, await promise.text());
    const got = await fetch(url);
    assert.equal(got.status, 405, await got.text());
    const text = await post(url, "by ada");
    assert.equal(text.status, 400, await text.text());
    const large = await post(url, JSON.stringify({ by: "x".repeat(2_000) }));
    assert.equal(large.status, 413, await large.text());
    assert.equal((await post(url, JSON.stringify({ by: "ada" }))).status, 202); // none of these took the signal
    assert.deepEqual(answered(await ended(server, first)), { n: 11, by: "ada", job: jobOf(first) });
  });

  it("refuses an expired URL (410)", async () => {
    // The server's clock, moved past the URL's expiry instead of a wait for it (the listener serves this server).
    let time = Date.now();
    const shared = server;
    server = makeServer(listener!.url, { tokens: { now: () => time } });
    try {
      const first = await server.call("approve", { n: 12, ttlMs: 1, timeoutMs: 300 });
      const url = await urlOf(12);
      time += 50; // past its expiry
      const expired = await post(url, JSON.stringify({ by: "ada" }));
      assert.equal(expired.status, 410, await expired.text());
      time += 300; // and past the wait's deadline
      assert.deepEqual(answered(await ended(server, first)), { n: 12, by: "nobody in 300 ms", job: jobOf(first) });
    } finally {
      server = shared;
    }
  });
});

/**
 * POSTs an MCP 2025-11-25 `tools/call` to a listener over a raw HTTP/1.1 connection with the `Host` the caller writes
 * (a `fetch` would put the URL's), and answers the JSON-RPC response.
 */
function callWithHost(listener: string, host: string, name: string): Promise<Record<string, any>> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } });
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${listener}/mcp`, {
      method: "POST",
      headers: {
        host,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      timeout: 30_000,
    }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => text += chunk).on("end", () => {
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(new Error(`${response.statusCode}: ${text}`));
        }
      });
    });
    sent.on("timeout", () => sent.destroy(new Error("no answer in 30 s"))).on("error", reject).end(body);
  });
}

// Issue 101, item 6: a signal URL is a bearer capability; its origin comes from configuration, never a forged `Host`.
// The server answers any `Host` (`allowedHosts: "*"`, as behind a proxy that passes `Host` on): the default list of
// loopback names would refuse a foreign one before the job starts.
describe("a signal URL's origin without signals({ publicUrl })", () => {
  let listener: Listener | undefined;
  const server = createServer({
    name: "origin",
    version: "1.0.0",
    secret: SECRET,
    signals: signals(),
    allowedHosts: "*",
  }).tool(
    defineTool("url").describe("Makes a signal URL").input(v.object({})).longRunning()
      .defer(async (_, work) => await work.signalUrl("go")),
  );
  before(async () => {
    listener = await serve({ fetch: server.fetch }, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => await listener?.close());

  it("is the request's loopback host in development (http:)", async () => {
    const answer = await callWithHost(listener!.url, new URL(listener!.url).host, "url");
    assert.equal(answer.result?.isError, undefined, JSON.stringify(answer));
    assert.match(answer.result.content[0].text, new RegExp(`^${listener!.url}/signals/[\\w.~-]+$`));
  });

  it("is never a forged Host's: the job fails saying to set publicUrl, and no URL names that host", async () => {
    for (const host of ["evil.example", "evil.example:443", "127.0.0.1.evil.example", "localhost.evil.example"]) {
      const answer = await callWithHost(listener!.url, host, "url");
      assert.equal(answer.result?.isError, true, JSON.stringify(answer));
      const text: string = answer.result.content[0].text;
      assert.match(text, /signals\(\{ publicUrl: "https:\/\/<the server's public origin>" \}\)/);
      assert.doesNotMatch(text, /\/signals\/\S/, `no URL made for Host ${host}: ${text}`);
    }
  });

  it("is refused for a job started in process (no request), saying to set publicUrl", async () => {
    assert.match(
      failedWith(await ended(server, await server.call("url", {}))),
      /this job came from no request: give signals\(\{ publicUrl \}\)/,
    );
  });
});
