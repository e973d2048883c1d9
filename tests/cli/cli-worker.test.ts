/**
 * `mcplite worker`'s command line: what it refuses before it takes a job (exit 2 with the usage, exit 3 for a
 * module it cannot run), on the runtime running the tests. tests/bullmq/ runs it taking jobs, draining, killed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli } from "./cli-helpers.ts";

describe("mcplite worker: the command line", () => {
  it("is in the help, and refuses a line it cannot run, naming why", async () => {
    assert.match((await runCli(["--help"])).stdout, /mcplite worker <server module> \[--concurrency <n>\]/);
    const none = await runCli(["worker"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^mcplite: worker needs one server module\nusage: mcplite worker/);
    const missing = await runCli(["worker", "no-such-server.ts"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no file no-such-server\.ts/);
    const zero = await runCli(["worker", "examples/quickstart.ts", "--concurrency", "0"]);
    assert.equal(zero.code, 2);
    assert.match(zero.stderr, /--concurrency takes a positive number, not "0"/);
    const unknown = await runCli(["worker", "examples/quickstart.ts", "--port", "1"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option --port/);
  });

  it("exits 3 for a module whose server has no queue, or that exports none", async () => {
    const noQueue = await runCli(["worker", "examples/quickstart.ts"]);
    assert.equal(noQueue.code, 3, noQueue.stderr);
    assert.match(
      noQueue.stderr,
      /runWorker\(\) needs a server made with a queue \(createServer\(\{ queue \}\); queue: "store" keeps one/,
    );
    const noServer = await runCli(["worker", "tests/cli/fixtures/no-server.ts"]);
    assert.equal(noServer.code, 3, noServer.stderr);
    assert.match(noServer.stderr, /the module exports no server/);
  });
});
