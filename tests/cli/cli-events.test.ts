/**
 * `mcplite events tail` end to end, as a user runs it (a child process of the runtime running the tests), against
 * the FIXTURE events server written from issue 77's brief (tests/helpers/events-fixture.ts, to be replaced by the
 * real server's when it lands): it subscribes through the fixture's challenge, prints each delivery as a JSON line,
 * and unsubscribes on SIGINT.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { type EventsFixture, startEventsFixture } from "../helpers/events-fixture.ts";
import { cliCommand } from "./cli-helpers.ts";

let fixture: EventsFixture;

/** A running `mcplite events tail`: its output so far, and a wait for a pattern in it (bounded in time). */
function tail(args: string[]) {
  const [command, argv] = cliCommand(["events", "tail", ...args]);
  const child: ChildProcess = spawn(command, argv, {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  const out = { stdout: "", stderr: "" };
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => out.stdout += chunk);
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => out.stderr += chunk);
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const closed = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal });
    })
  );
  const waitFor = async (stream: "stdout" | "stderr", pattern: RegExp) => {
    const until = Date.now() + 20_000;
    while (!pattern.test(out[stream])) {
      if (Date.now() > until || child.exitCode !== null) {
        throw new Error(`no ${pattern} in ${stream}; stdout: ${out.stdout}\nstderr: ${out.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
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
    fixture = await startEventsFixture();
  });
  after(async () => {
    await fixture.close();
  });

  it("subscribes to the event named, prints each delivery as a JSON line, and unsubscribes on SIGINT", {
    timeout: 60_000,
  }, async () => {
    fixture.subscriptions.clear();
    const run = tail([`${fixture.url}/mcp`, "order.shipped", "--wire", "mcp", "--arg", "customerId=c1"]);
    try {
      await run.waitFor("stderr", /tailing order\.shipped at http:\/\/127\.0\.0\.1:\d+\//);
      assert.equal(fixture.subscriptions.size, 1);
      assert.deepEqual([...fixture.subscriptions.values()][0].arguments, { customerId: "c1" });
      assert.deepEqual(await fixture.emit("order.shipped", { orderId: "o1", customerId: "c1" }), [204]);
      await run.waitFor("stdout", /\n/);
      const [line] = run.out.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(line.name, "order.shipped");
      assert.deepEqual(line.data, { orderId: "o1", customerId: "c1" });
      assert.match(line.subscriptionId, /^sub_/);
      assert.equal(line.webhookId, line.eventId);
    } finally {
      run.child.kill("SIGINT");
    }
    assertStopped(await run.closed, run.out.stderr);
    assert.equal(fixture.subscriptions.size, 0, "unsubscribed on SIGINT");
  });

  it(
    "tails every event the server lists when none is named (a bare origin: MCP-lite)",
    { timeout: 60_000 },
    async () => {
      fixture.subscriptions.clear();
      const run = tail([fixture.url]);
      try {
        await run.waitFor("stderr", /tailing order\.shipped, stock\.low at/);
        assert.deepEqual([...fixture.subscriptions.values()].map((s) => s.name).sort(), ["order.shipped", "stock.low"]);
        await fixture.emit("stock.low", { sku: "s1" });
        await run.waitFor("stdout", /"stock\.low"/);
      } finally {
        run.child.kill("SIGINT");
      }
      assertStopped(await run.closed, run.out.stderr);
      assert.equal(fixture.subscriptions.size, 0);
    },
  );

  it("refuses an event the server does not list, naming those it does (exit 2)", { timeout: 60_000 }, async () => {
    const run = tail([fixture.url, "order.shiped"]);
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
