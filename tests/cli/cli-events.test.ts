/**
 * `mcplite events tail` end to end, as a user runs it (a child process of the runtime running the tests), against
 * our real events server (`createServer(…).event(defineEvent(…))`, callbacks allowed on `http://127.0.0.1` at any
 * port) served on 127.0.0.1: it subscribes through the server's challenge with a secret of its own, prints each
 * delivery as a JSON line, and unsubscribes on SIGINT.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, serve } from "../../mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import type { Listener } from "../../src/types.ts";
import { cliCommand } from "./cli-helpers.ts";
import { output } from "../helpers/process.ts";
import { readUntil } from "../helpers/wait.ts";

const shipped = defineEvent("order.shipped")
  .describe("An order left the warehouse")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);
const low = defineEvent("stock.low").payload(v.object({ sku: v.string() }));

const server = createServer({
  name: "shop",
  version: "1.0.0",
  secret: "cli-events-tests-secret-0123456789abcdef",
  resultStore: createMemoryResultStore(),
  // No port: the CLI's receiver listens on a free one. Polls are answered "again in 200 ms" (the default's 5 s would
  // make the poll test wait out three of them): the CLI keeps the pace the server asks for, whatever it is.
  events: { allowCallbacks: ["http://127.0.0.1"], pollIntervalMs: 200 },
}).event(shipped).event(low);

let listener: Listener;

/** A running `mcplite events tail`: its output so far, and a wait for a pattern in it (bounded in time). */
function tail(args: string[]) {
  const [command, argv] = cliCommand(["events", "tail", ...args]);
  const child: ChildProcess = spawn(command, argv, {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  const printed = { stdout: output(child, ["stdout"]), stderr: output(child, ["stderr"]) };
  const out = {
    get stdout() {
      return printed.stdout.text();
    },
    get stderr() {
      return printed.stderr.text();
    },
  };
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const closed = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal });
    })
  );
  const waitFor = async (stream: "stdout" | "stderr", pattern: RegExp, ms = 20_000) => {
    await printed[stream].until(pattern, ms).catch(() => {
      throw new Error(`no ${pattern} in ${stream}; stdout: ${out.stdout}\nstderr: ${out.stderr}`);
    });
  };
  return { child, out, closed, waitFor };
}

/**
 * The CLI stopped on its own after SIGINT: exit code 0. Deno's node:child_process reports a child's exit after
 * kill("SIGINT") as the signal itself (as in cli.test.ts); that the subscriptions are gone shows the CLI handled it.
 */
function assertStopped(closed: { code: number | null; signal: string | null }, stderr: string): void {
  const isDeno = "Deno" in globalThis;
  assert.ok(closed.code === 0 || (isDeno && closed.signal === "SIGINT"), `${JSON.stringify(closed)}: ${stderr}`);
}

describe("mcplite events tail", () => {
  before(async () => {
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await listener.close();
  });

  it("subscribes to the event named, prints each delivery as a JSON line, and unsubscribes on SIGINT", {
    timeout: 60_000,
  }, async () => {
    const run = tail([`${listener.url}/mcp`, "order.shipped", "--wire", "mcp", "--arg", "customerId=c1"]);
    try {
      await run.waitFor("stderr", /tailing order\.shipped at http:\/\/127\.0\.0\.1:\d+\//);
      // Subscribed with customerId c1 only: the server's match hands it c1's orders, not c2's.
      assert.equal((await server.emit("order.shipped", { orderId: "o0", customerId: "c2" })).deliveries, 0);
      const { eventId, deliveries } = await server.emit("order.shipped", { orderId: "o1", customerId: "c1" });
      assert.equal(deliveries, 1);
      await run.waitFor("stdout", /\n/);
      const [line] = run.out.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(line.name, "order.shipped");
      assert.equal(line.eventId, eventId);
      assert.deepEqual(line.data, { orderId: "o1", customerId: "c1" });
      assert.match(line.subscriptionId, /^sub_/);
      assert.equal(line.webhookId, line.eventId);
    } finally {
      run.child.kill("SIGINT");
    }
    assertStopped(await run.closed, run.out.stderr);
    const after = await server.emit("order.shipped", { orderId: "o2", customerId: "c1" });
    assert.equal(after.deliveries, 0, "unsubscribed on SIGINT");
  });

  it(
    "tails every event the server lists when none is named (a bare origin: MCP-lite), leaving out those it lacks arguments for",
    { timeout: 60_000 },
    async () => {
      const run = tail([listener.url]);
      try {
        await run.waitFor("stderr", /tailing stock\.low at/);
        assert.match(
          run.out.stderr,
          /not tailing order\.shipped: it needs customerId \(--arg customerId=… or --args\)/,
        );
        assert.equal((await server.emit("stock.low", { sku: "s1" })).deliveries, 1);
        await run.waitFor("stdout", /"stock\.low"/);
        assert.deepEqual(JSON.parse(run.out.stdout.trim()).data, { sku: "s1" });
      } finally {
        run.child.kill("SIGINT");
      }
      assertStopped(await run.closed, run.out.stderr);
      assert.equal((await server.emit("stock.low", { sku: "s2" })).deliveries, 0);
    },
  );

  it("tails every event listed with the arguments given to all (--arg)", { timeout: 60_000 }, async () => {
    const run = tail([listener.url, "--arg", "customerId=c9"]);
    try {
      await run.waitFor("stderr", /tailing order\.shipped, stock\.low at/);
      assert.equal((await server.emit("order.shipped", { orderId: "o9", customerId: "c9" })).deliveries, 1);
      await run.waitFor("stdout", /"o9"/);
    } finally {
      run.child.kill("SIGINT");
    }
    assertStopped(await run.closed, run.out.stderr);
    assert.equal((await server.emit("order.shipped", { orderId: "o9", customerId: "c9" })).deliveries, 0);
  });

  it("tails by push (--mode push): one events/stream, no receiver, each occurrence a JSON line with its cursor", {
    timeout: 60_000,
  }, async () => {
    const run = tail([
      `${listener.url}/mcp`,
      "order.shipped",
      "--wire",
      "mcp",
      "--mode",
      "push",
      "--arg",
      "customerId=c3",
    ]);
    try {
      await run.waitFor("stderr", /tailing order\.shipped by push/);
      // The stream starts at the log's head once it opens, after the line above: occurrences are emitted again
      // (each pair given a second) until one reaches it, and another caller's never does.
      // No event says the stream opened: each pair is a probe, the line it prints the answer (a bound of 20 s).
      await readUntil(
        async () => {
          await server.emit("order.shipped", { orderId: "p0", customerId: "c4" });
          await server.emit("order.shipped", { orderId: "p1", customerId: "c3" });
          await run.waitFor("stdout", /"p1"/, 1_000).catch(() => {});
          return run.out.stdout;
        },
        (stdout) => /"p1"/.test(stdout),
        "an occurrence of p1 printed",
        { timeoutMs: 20_000, everyMs: 0 },
      ).catch(
        () => {},
      );
      const line = JSON.parse(run.out.stdout.trim().split("\n")[0]);
      assert.equal(line.name, "order.shipped");
      assert.deepEqual(line.data, { orderId: "p1", customerId: "c3" });
      assert.equal(typeof line.cursor, "string");
      assert.doesNotMatch(run.out.stdout, /"p0"/);
      assert.doesNotMatch(run.out.stderr, / at http:/); // no receiver
    } finally {
      run.child.kill("SIGINT");
    }
    assertStopped(await run.closed, run.out.stderr);
  });

  it(
    "tails by poll (--mode poll): events/poll from each answer's cursor, over MCP-lite too",
    { timeout: 60_000 },
    async () => {
      const run = tail([listener.url, "stock.low", "--mode", "poll"]);
      try {
        await run.waitFor("stderr", /tailing stock\.low by poll/);
        // Its first poll starts from now: occurrences emitted until one is printed (it holds a cursor from then on).
        // No event says the first poll was answered: each occurrence is a probe, every 100 ms (a bound of 20 s).
        let i = 0;
        await readUntil(
          async () => {
            await server.emit("stock.low", { sku: `w${i++}` });
            return run.out.stdout;
          },
          (stdout) => /"w\d+"/.test(stdout),
          "an occurrence printed",
          { timeoutMs: 20_000, everyMs: 100 },
        ).catch(
          () => {},
        );
        await server.emit("stock.low", { sku: "q1" });
        await run.waitFor("stdout", /"q1"/);
        await server.emit("stock.low", { sku: "q2" });
        await run.waitFor("stdout", /"q2"/);
        const skus = run.out.stdout.trim().split("\n").map((l) => JSON.parse(l).data.sku);
        assert.deepEqual(
          skus.filter((sku: string) => sku === "q1" || sku === "q2"),
          ["q1", "q2"],
          "each once, in order",
        );
      } finally {
        run.child.kill("SIGINT");
      }
      assertStopped(await run.closed, run.out.stderr);
    },
  );

  it("keeps printing across a restart of the server, by push and by poll over MCP-lite: none missed, none twice", {
    timeout: 90_000,
  }, async () => {
    // The server stops (its connections cut, as a deploy's old process ends) and a new one starts on the same port
    // over the same store, which keeps the occurrence log: what was emitted meanwhile is read from each cursor.
    const store = createMemoryResultStore();
    const instance = () =>
      createServer({
        name: "shop",
        version: "1.0.0",
        secret: "cli-events-tests-secret-0123456789abcdef",
        resultStore: store,
        events: { pollIntervalMs: 200 },
      }).event(low);
    const first = instance();
    let serving = await serve(first, { port: 0, hostname: "127.0.0.1", quiet: true });
    const { port } = new URL(serving.url);
    const runs = {
      push: tail([serving.url, "stock.low", "--mode", "push"]),
      poll: tail([serving.url, "stock.low", "--mode", "poll"]),
    };
    const skus = (run: ReturnType<typeof tail>) =>
      run.out.stdout.trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l).data.sku as string);
    try {
      for (const [mode, run] of Object.entries(runs)) {
        await run.waitFor("stderr", new RegExp(`tailing stock\\.low by ${mode}`));
      }
      // Each holds a cursor once it printed one: probes until both did (a bound of 20 s).
      let i = 0;
      await readUntil(
        async () => {
          await first.emit("stock.low", { sku: `w${i++}` });
          return skus(runs.push).length > 0 && skus(runs.poll).length > 0;
        },
        (both) => both,
        "an occurrence printed by push and by poll",
        { timeoutMs: 20_000, everyMs: 100 },
      );
      await serving.close();
      const second = instance();
      await second.emit("stock.low", { sku: "r1" }); // while no server listens
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // a poll or two meets the closed port
      serving = await serve(second, { port: Number(port), hostname: "127.0.0.1", quiet: true });
      await second.emit("stock.low", { sku: "r2" });
      for (const run of Object.values(runs)) {
        await run.waitFor("stdout", /"r2"/, 40_000);
        const after = skus(run).filter((sku) => sku === "r1" || sku === "r2");
        assert.deepEqual(after, ["r1", "r2"], `each once, in order: ${run.out.stdout}\n${run.out.stderr}`);
      }
    } finally {
      for (const run of Object.values(runs)) run.child.kill("SIGINT");
      await serving.close();
    }
    for (const run of Object.values(runs)) assertStopped(await run.closed, run.out.stderr);
  });

  it("refuses --mode it does not know, and --port without a receiver (exit 2)", async () => {
    const bad = tail([listener.url, "--mode", "sse"]);
    assert.equal((await bad.closed).code, 2);
    assert.match(bad.out.stderr, /--mode must be one of webhook, push, poll/);
    const port = tail([listener.url, "--mode", "push", "--port", "4000"]);
    assert.equal((await port.closed).code, 2);
    assert.match(port.out.stderr, /--port goes with --mode webhook/);
  });

  it("refuses a named event whose required arguments are not given (exit 2), subscribing to nothing", async () => {
    const run = tail([listener.url, "order.shipped"]);
    assert.equal((await run.closed).code, 2);
    assert.match(run.out.stderr, /order\.shipped needs customerId \(--arg customerId=… or --args\)/);
  });

  it("says the server must allow-list http://127.0.0.1 when it refuses the callback (-32012, exit 2)", async () => {
    const strict = createServer({ name: "strict", version: "1.0.0", resultStore: createMemoryResultStore() })
      .event(low);
    const served = await serve(strict, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const run = tail([served.url, "stock.low"]);
      assert.equal((await run.closed).code, 2, run.out.stderr); // an error (ExitCode.Error)
      assert.match(run.out.stderr, /refused the callback http:\/\/127\.0\.0\.1:\d+\/ for stock\.low/);
      assert.match(run.out.stderr, /allowCallbacks/);
      assert.match(run.out.stderr, /The callback URL is refused: it is not https/);
    } finally {
      await served.close();
    }
  });

  it("refuses an event the server does not list, naming those it does (exit 2)", { timeout: 60_000 }, async () => {
    const run = tail([listener.url, "order.shiped"]);
    assert.equal((await run.closed).code, 2);
    assert.match(run.out.stderr, /no event named "order\.shiped" \(the server lists order\.shipped, stock\.low\)/);
  });

  it("says what events takes, and that the server must allow the callback (--help)", async () => {
    const run = tail(["--help"]);
    assert.equal((await run.closed).code, 0);
    assert.match(run.out.stdout, /events tail <url> \[event…\]/);
    assert.match(run.out.stdout, /allowCallbacks/);
  });
});
