/**
 * Saved programs of code mode (`codeMode({ savedPrograms })`): a caller saves a program that worked, finds it with
 * `discover_tools` and runs it by name with `args` from another session (a second client with the same token, on
 * a second instance sharing the store), never another caller; the bounds and every refusal; a promised one on a
 * queue. On the memory store, a real redis-server and a real PostgreSQL.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createMemoryResultStore, createServer, defineTool, type ResultStore, runWorker } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { codeMode, quickjsExecutor, type SavedProgramsOptions } from "../../src/code-mode/mod.ts";
import { SavedPrograms } from "../../src/code-mode/saved-programs.ts";
import pg from "pg";
import { postgresResultStore } from "../../src/postgres/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { SECRET } from "../helpers/long-running.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";
import { callAny, promised, redeemedWithin } from "../helpers/outcome.ts";
import { REDIS_CLIENTS } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, startRedis } from "../helpers/redis-server.ts";
import { POSTGRES_MISSING, startPostgres } from "../helpers/postgres-server.ts";

/** One sandbox for every server of the file: its WebAssembly module loads once. */
const executor = quickjsExecutor();

const ORDERS = [{ id: 1, total: 30 }, { id: 2, total: 5 }, { id: 3, total: 80 }];

/** A shop whose callers authenticate with the opaque tokens `reader`, `admin` and `stranger`. */
function shop(savedPrograms: SavedProgramsOptions, resultStore?: ResultStore) {
  return createServer({
    name: "shop",
    version: "1.0.0",
    auth: opaqueAuth(),
    ...(resultStore === undefined ? {} : { resultStore }),
    codeMode: codeMode({ executor, promiseAfterMs: 60_000, savedPrograms }),
  })
    .tool(defineTool("orders").describe("Lists the orders").handle(() => ({ orders: ORDERS })))
    .tool(defineTool("whoami").describe("Tells who you are").handle((_args, ctx) => ctx.auth?.subject ?? "nobody"));
}

type Shop = ReturnType<typeof shop>;

/** A session of a caller: an MCP client in process with the caller's token, calling tools by any name. */
function session(server: Shop, token: string) {
  const client = createClient(server, { headers: bearer(token), transport: "mcp" });
  const call = client.call.bind(client) as unknown as (name: string, args: object) => Promise<unknown>;
  /** The tool's whole result (structured content and text), a failure included. */
  const result = async (name: string, args: object) => {
    try {
      return { ok: true, value: await call(name, args) };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  };
  return { call, result, close: () => client.close() };
}

const BIG_ORDERS = "const { orders } = await tools.orders();\n" +
  "return orders.filter((o: { total: number }) => o.total >= args.min).map((o) => o.id);";
const MIN_SCHEMA = { type: "object", properties: { min: { type: "number", minimum: 0 } }, required: ["min"] };

/** The whole story on servers made by `instance`: two instances stand for two sessions on a shared store. */
async function story(instance: () => Shop): Promise<void> {
  const first = instance(), second = instance();
  const ada = session(first, "reader"); // `reader` is the subject
  const adaAgain = session(second, "reader"); // the same caller, another connection (another instance)
  const eve = session(second, "admin"); // another caller
  try {
    // It runs first with args, as the model tries it, then is saved as it ran.
    assert.deepEqual(await ada.call("execute_code", { code: BIG_ORDERS, args: { min: 10 } }), {
      result: [1, 3],
      logs: [],
    });
    assert.deepEqual(
      await ada.call("save_program", {
        name: "big_orders",
        description: "The ids of the orders of at least a total",
        code: BIG_ORDERS,
        inputSchema: MIN_SCHEMA,
      }),
      { saved: "big_orders" },
    );

    // Found by a search and listed by another session of the same caller, with its declaration; run by name.
    const found = await adaAgain.call("discover_tools", { query: "large orders total" }) as {
      programs: { name: string }[];
    };
    assert.deepEqual(found.programs, [{
      name: "big_orders",
      description: "The ids of the orders of at least a total",
    }]);
    const listed = await adaAgain.result("discover_tools", { programs: true });
    assert.deepEqual((listed.value as { programs: unknown[] }).programs.length, 1);
    assert.deepEqual(await adaAgain.call("execute_code", { program: "big_orders", args: { min: 50 } }), {
      result: [3],
      logs: [],
    });

    // Never seen nor run by another caller; that caller's own program of the same name is its own.
    const hidden = await eve.call("discover_tools", { query: "large orders total", programs: true }) as {
      programs: unknown[];
    };
    assert.deepEqual(hidden.programs, []);
    const refused = await eve.result("execute_code", { program: "big_orders", args: { min: 50 } });
    assert.equal(refused.ok, false);
    assert.match(refused.message!, /No saved program "big_orders"/);
    await eve.call("save_program", { name: "big_orders", description: "Mine", code: "return 'eve';" });
    assert.deepEqual(await eve.call("execute_code", { program: "big_orders" }), { result: "eve", logs: [] });
    assert.deepEqual(await ada.call("execute_code", { program: "big_orders", args: { min: 50 } }), {
      result: [3],
      logs: [],
    });

    // Its args are checked against its schema before it runs, the path named.
    const bad = await ada.result("execute_code", { program: "big_orders", args: { min: -1 } });
    assert.equal(bad.ok, false);
    assert.match(bad.message!, /args of big_orders do not match its inputSchema: min: /);

    // Removed by its caller only.
    assert.deepEqual(await eve.call("save_program", { name: "big_orders", remove: true }), { removed: "big_orders" });
    assert.deepEqual(await adaAgain.call("execute_code", { program: "big_orders", args: { min: 0 } }), {
      result: [1, 2, 3],
      logs: [],
    });
    await adaAgain.call("save_program", { name: "big_orders", remove: true });
    const gone = await ada.result("execute_code", { program: "big_orders", args: { min: 0 } });
    assert.match(gone.message!, /No saved program/);
  } finally {
    await Promise.all([ada.close(), adaAgain.close(), eve.close()]);
  }
}

describe("saved programs", () => {
  it("are found and run by another session of their caller, never by another caller (memory store)", async () => {
    const store = (await import("../../mod.ts")).createMemoryResultStore();
    await story(() => shop({}, store));
  });

  it("keep to their bounds, with refusals that say what to do", async () => {
    const server = shop({ max: 2, maxBytes: 200 });
    const ada = session(server, "reader");
    try {
      const save = (name: string, code = "return 1;", more: object = {}) =>
        ada.result("save_program", { name, description: `Program ${name}`, code, ...more });
      assert.equal((await save("one")).ok, true);
      assert.equal((await save("two")).ok, true);
      const full = await save("three");
      assert.match(full.message!, /You have 2 saved programs, at most 2: remove one first \(one, two\)/);
      assert.equal((await save("two", "return 2;")).ok, true, "a name saved again is replaced, within the count");
      assert.deepEqual(await ada.call("execute_code", { program: "two" }), { result: 2, logs: [] });
      assert.match((await save("one", "x".repeat(300))).message!, /The program is \d+ bytes .* at most 200/);
      assert.match((await save("not-a-name")).message!, /an identifier/);
      assert.match((await save("one", "return (1")).message!, /does not parse/);
      assert.match((await save("one", "return 1;", { inputSchema: { type: "array" } })).message!, /of an object/);
      assert.match((await ada.result("save_program", { name: "one" })).message!, /code and description/);
      assert.match((await ada.result("save_program", { name: "nine", remove: true })).message!, /No saved program/);
      assert.match((await ada.result("execute_code", {})).message!, /code, or a saved program's name/);
      assert.deepEqual(await ada.call("execute_code", { code: "const args = 3;\nreturn args;" }), {
        result: 3,
        logs: [],
      });
      assert.match((await ada.result("execute_code", { code: "return 1;", program: "one" })).message!, /not both/);
    } finally {
      await ada.close();
    }
  });

  it("need an authenticated caller unless the server allows anonymous ones", async () => {
    const open = (anonymous: boolean) =>
      createServer({ name: "open", version: "1.0.0", codeMode: codeMode({ executor, savedPrograms: { anonymous } }) });
    const call = (server: ReturnType<typeof open>, name: string, args: object) =>
      (server.call.bind(server) as unknown as (name: string, args: object) => ReturnType<typeof server.call>)(
        name,
        args,
      );
    const refused = await call(open(false), "save_program", { name: "a", description: "A", code: "return 1;" });
    assert.ok(refused.kind === "failure", JSON.stringify(refused));
    assert.match(JSON.stringify(refused), /per authenticated caller/);
    const server = open(true);
    const saved = await call(server, "save_program", { name: "a", description: "A", code: "return args.n * 2;" });
    assert.equal(saved.kind, "answer", JSON.stringify(saved));
    const found = await call(server, "discover_tools", { programs: true });
    assert.ok(found.kind === "answer");
    assert.match(
      JSON.stringify(found.result.content),
      /declare const programs: \{\\n {2}\/\*\* A \*\/\\n {2}a\(args: AInput\): unknown;/,
    );
    const ran = await call(server, "execute_code", { program: "a", args: { n: 21 } });
    assert.deepEqual(ran.kind === "answer" && ran.result.structuredContent, { result: 42, logs: [] });
  });

  it("leave code mode as it was when off: no save tool, execute_code takes code alone", async () => {
    const listed = async (server: ReturnType<typeof createServer>, headers: Record<string, string> = {}) => {
      const client = createClient(server, { transport: "mcp", headers });
      try {
        return await client.listTools();
      } finally {
        await client.close();
      }
    };
    const plain = await listed(createServer({ name: "plain", version: "1.0.0", codeMode: codeMode({ executor }) }));
    assert.deepEqual(plain.map((tool) => tool.name).sort(), ["discover_tools", "execute_code"]);
    const execute = plain.find((tool) => tool.name === "execute_code")!;
    assert.deepEqual(Object.keys((execute.inputSchema as { properties: object }).properties), ["code"]);
    const saving = await listed(shop({}), bearer("reader"));
    assert.deepEqual(saving.map((tool) => tool.name).sort(), ["discover_tools", "execute_code", "save_program"]);
  });
});

describe("a saved program promised on a queue", () => {
  it("runs again on the worker with its args, from the job, its call before the promise not made twice", async () => {
    let slowCalls = 0;
    let called = () => {};
    const slowCalled = new Promise<void>((resolve) => called = resolve);
    let release = () => {};
    const released = new Promise<void>((resolve) => release = resolve);
    const server = createServer({
      name: "queued",
      version: "1.0.0",
      secret: SECRET,
      resultStore: createMemoryResultStore(),
      queue: memoryQueue().queue,
      codeMode: codeMode({ executor, promiseAfterMs: 1, savedPrograms: {} }),
    }).tool(
      defineTool("slow").describe("Answers once let").handle(
        () => (slowCalls++, called(), released.then(() => "slow")),
      ),
    );
    const worker = runWorker(server);
    const auth = { auth: { subject: "ada" } };
    try {
      const code = "const s = await tools.slow();\nreturn { s, n: args.n * 2 };";
      const saved = await callAny(server, "save_program", { name: "twice", description: "Twice n", code }, auth);
      assert.equal(saved.kind, "answer", JSON.stringify(saved));
      const answering = callAny(server, "execute_code", { program: "twice", args: { n: 21 } }, auth);
      // slow is in flight; the 1 ms promise timer, set as the program started, fires before this 5 ms one (timers in
      // order): slow ends on this side once the program is held at its promise, and the worker reads it back.
      await slowCalled;
      await new Promise((resolve) => setTimeout(resolve, 5)); // about time: after the 1 ms timer (timers in order)
      release();
      const ended = await redeemedWithin(
        { call: (name, args) => callAny(server, name, args, auth) }, // the caller's promise, redeemed by the caller
        promised(await answering).token,
        60_000,
      );
      assert.deepEqual(ended.kind === "answer" && ended.result.structuredContent, {
        result: { s: "slow", n: 42 },
        logs: [],
      });
      assert.equal(slowCalls, 1);
    } finally {
      await worker.close();
    }
  });
});

describe("saved programs on Redis", { skip: REDIS_MISSING }, () => {
  it("are found and run by another session on another instance, never by another caller", async () => {
    const redis = await startRedis();
    const clients = await Promise.all([REDIS_CLIENTS[0].connect(redis.url), REDIS_CLIENTS[0].connect(redis.url)]);
    try {
      let next = 0; // each instance its own connection, as two processes would have
      await story(() => shop({}, redisResultStore(clients[next++].client)));
    } finally {
      for (const client of clients) client.close();
      await redis.stop();
    }
  });
});

describe("saved programs on PostgreSQL", { skip: POSTGRES_MISSING }, () => {
  it("are found and run by another session on another instance, never by another caller", async () => {
    const postgres = await startPostgres();
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: postgres.url, max: 4 }));
    try {
      let next = 0; // each instance its own pool, as two processes would have
      // The statements' bound, from its default 2 s to 10 s: what this test asserts is who finds a program, and on a
      // loaded machine a fresh server's first statements took longer (an honest "unavailable", not what is tested).
      await story(() => shop({}, postgresResultStore(pools[next++], { table: "saved", timeoutMs: 10_000 })));
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await postgres.remove();
    }
  });
});

describe("saved programs across the store contract (issue 100, item 1)", () => {
  it("reads a program saved before it, as a job entry in the same key, and keeps its own form after", async () => {
    const results = createMemoryResultStore();
    const store = results.store!;
    const program = {
      name: "big_orders",
      description: "Orders over 50",
      code: "return 1",
      inputSchema: { type: "object" },
    };
    // As 1.0.0-rc.1 wrote it: a running entry at cmprog:<name>:<principal>, its name in cmprogs:<principal>.
    await store.put("cmprog:big_orders:ada", { status: "working", continued: { state: program } }, 60_000);
    await store.addMember("cmprogs:ada", "big_orders", 60_000);
    const programs = new SavedPrograms({}, () => store);
    assert.deepEqual(await programs.list("ada"), [program]);
    assert.equal(await programs.save("ada", { ...program, code: "return 2" }), undefined);
    assert.deepEqual(await store.get("cmprog:big_orders:ada"), { ...program, code: "return 2" }); // a record, not an entry
    assert.deepEqual(await programs.list("bob"), []);
  });
});
