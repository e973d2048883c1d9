/**
 * examples/queue/README.md, run as it is written: a real redis-server, the README's two web instances and two
 * `mcplite worker` processes (the command lines of the runtime running the tests, read from the README: Deno's
 * under `deno test`, Bun's under `bun test`), the README's settings (`MCPLITE_SECRET`; `REDIS_URL` and the ports
 * are this test's), then its call block in bash: the call on web instance 1 is answered with a promise, the redeem
 * on web instance 2 gets the report, each of its two steps run by a worker, across a durable sleep. Beside it, the
 * approval: `publish_report` builds a report as a child job and waits; the `curl` command a worker printed POSTs to the signal
 * URL (202; a replay by `fetch` 409, a changed token 403), and the redeem gets the child's report in the parent's. Then
 * SIGTERM to both workers while one runs a second report: both drain and exit, the report asleep in the queue; one
 * worker started again finishes it, its first step not run again.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { Queue } from "bullmq";
import { createClient } from "redis";
import { shellBlocks } from "../helpers/markdown.ts";
import { listening, type Output, output, ROOT, run } from "../helpers/process.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { tamper } from "../helpers/tamper.ts";
import { readUntil } from "../helpers/wait.ts";

if (REDIS_MISSING) console.error(`examples/queue: skipped: ${REDIS_MISSING}`);

const README = "examples/queue/README.md";
const blocks = shellBlocks(readFileSync(`${ROOT}${README}`, "utf8"), README);
const commands = blocks.flatMap((block) => block.code.split("\n").map((line) => line.trim()));
/** The runtime the README's command lines start with, for this test's runtime. */
const RUNTIME = "Deno" in globalThis ? "deno" : "bun";
/** How long a process may take to start (a runtime loading the SDK and BullMQ, on a loaded machine). */
const START_MS = 60_000;

/** The README's command lines of one role on this runtime, each as its environment and its arguments. */
function commandsOf(pattern: RegExp): { env: Record<string, string>; argv: string[] }[] {
  return commands.filter((line) => pattern.test(line)).map((line) => {
    const words = line.split(/\s+/);
    const env: Record<string, string> = {};
    while (/^[A-Z_]+=/.test(words[0])) {
      const [name, ...value] = words.shift()!.split("=");
      env[name] = value.join("=");
    }
    return { env, argv: words };
  }).filter(({ argv }) => argv[0] === RUNTIME);
}

/** The settings of step 2: its `export NAME=value` lines without a shell expansion (PATH is this test's). */
const settings: Record<string, string> = {};
for (const line of commands) {
  const setting = /^export ([A-Z_]+)=([^$\s]+)$/.exec(line);
  if (setting !== null) settings[setting[1]] = setting[2];
}
const webCommands = commandsOf(/examples\/queue\/server\.ts$/).filter(({ argv }) => !argv.includes("worker"));
const workerCommands = commandsOf(/ worker examples\/queue\/server\.ts$/);
/** Step 5: the call on web instance 1 and the redeem on web instance 2. */
const callBlock = blocks.find((block) => block.code.includes("curl"));
/** The approval: the call of `publish_report` on web instance 1, then (the block after it) its redeem on instance 2. */
const approvalBlock = blocks.find((block) => block.code.includes("publish_report"));
const approvalRedeem = blocks[blocks.indexOf(approvalBlock!) + 1];

/** A child process of the deployment. */
interface Child {
  readonly pid: number;
  /** The exit code, once it exited (`null` after a signal). */
  readonly exited: Promise<number | null>;
  /** What it wrote on stderr so far. */
  readonly log: () => string;
  /** What it writes on stderr, as it comes. */
  readonly stderr: Output;
  /** What it writes on stdout (the example's work prints there), as it comes. */
  readonly stdout: Output;
  readonly child: ChildProcess;
}

const children = new Set<Child>();
let redis: RedisServer | undefined;

before(async () => {
  if (!REDIS_MISSING) redis = await startRedis();
});

after(async () => {
  for (const { child } of children) child.kill("SIGKILL");
  await Promise.all([...children].map((c) => c.exited));
  await redis?.stop();
});

/** Starts a README command line (its first word is this runtime) with the README's settings and `env` over them. */
function start(argv: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, argv.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...settings, REDIS_URL: redis!.url, HOSTNAME: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr = output(child, ["stderr"]);
  const stdout = output(child, ["stdout"]);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started: Child = { pid: child.pid!, exited, log: stderr.text, stderr, stdout, child };
  children.add(started);
  exited.then(() => children.delete(started));
  return started;
}

/** Resolves once a child's stderr matches, within `timeoutMs`; rejects, with what it wrote, when it exits first. */
async function said(started: Child, pattern: RegExp, timeoutMs = START_MS): Promise<void> {
  await started.stderr.until(pattern, timeoutMs);
}

/** The first line matching `pattern` (a line's start to its end) that any of `children` printed on stdout. */
async function printed(of: Child[], pattern: RegExp, timeoutMs: number): Promise<string> {
  const line = new RegExp(`${pattern.source}.*$`, "m");
  try {
    return (await Promise.any(of.map((c) => c.stdout.until(line, timeoutMs))))[0];
  } catch {
    assert.fail(`no process printed ${pattern} within ${timeoutMs} ms: ${of.map((c) => c.log()).join(" | ")}`);
  }
}

/** An MCP-lite result: its `_meta` and structured content. */
interface LiteResult {
  readonly _meta: { readonly response_type: string; readonly promise_token?: string };
  readonly structuredContent?: Report;
}

/** A process, as the report names it. */
interface Ran {
  readonly pid: number;
}

/** The example's report: which process ran each step, which one finished the work, the key its last step wrote. */
interface Report {
  readonly region: string;
  readonly quarter: string;
  readonly published: string;
  readonly steps: { readonly orders: Ran; readonly revenue: Ran };
  readonly builtBy: Ran;
}

/** Whether the example's Redis holds a key (what the report's last step wrote). */
async function published(key: string): Promise<boolean> {
  const client = await createClient({ url: redis!.url }).connect();
  try {
    return (await client.exists(key)) === 1;
  } finally {
    await client.close();
  }
}

/** Calls a tool over MCP-lite. */
async function callTool(origin: string, name: string, args: unknown): Promise<LiteResult> {
  const response = await fetch(`${origin}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    signal: AbortSignal.timeout(15_000),
  });
  return (await response.json()).result;
}

/** Waits until the queue counts a job in one of `states` (BullMQ's), at most `timeoutMs`. */
async function counted(states: ("active" | "delayed" | "waiting")[], timeoutMs: number): Promise<void> {
  const { hostname, port } = new URL(redis!.url);
  const queue = new Queue("reports", { connection: { host: hostname, port: Number(port) } });
  try {
    await readUntil(
      () => queue.getJobCounts(...states),
      (counts) => Object.values(counts).some((n) => n > 0),
      `a job ${states.join(" or ")}`,
      { timeoutMs, everyMs: 50 },
    ).catch(async (error: Error) => {
      // Where the job is instead (once seen: after SIGTERM, none delayed or waiting within 5 s on a loaded CI run)
      assert.fail(`${error.message}; the queue counts ${JSON.stringify(await queue.getJobCounts())}`);
    });
  } finally {
    await queue.close();
  }
}

/**
 * Waits until the report job the queue did not hold before (`earlier`: the ids it held) is in its first start
 * (BullMQ's `attemptsStarted` 1: the `orders` step, or the sleep after it), at most `timeoutMs`, on a connection
 * opened before the call. Its wake-up after the sleep is its second start: a SIGTERM then lets the draining worker
 * finish the report, and nothing is left asleep to resume. Waiting for any active job, on a connection opened after
 * the call, failed so on a loaded CI run ("no job delayed or waiting"; a first poll 1.2 s late does it every time:
 * the queue then counts the report completed).
 */
async function firstStart(queue: Queue, earlier: ReadonlySet<string>, timeoutMs: number): Promise<void> {
  await readUntil(
    async () =>
      (await queue.getJobs(["active", "delayed", "waiting", "completed", "failed"]))
        .filter((job) => !earlier.has(job.id!)),
    (jobs) => {
      const late = jobs.find((job) => job.attemptsStarted > 1 || job.finishedOn !== undefined);
      if (late !== undefined) {
        assert.fail(`the report ran past its first start before it was seen: ${JSON.stringify(late.toJSON())}`);
      }
      return jobs.some((job) => job.attemptsStarted === 1 && job.processedOn !== undefined);
    },
    "a report in its first start",
    { timeoutMs, everyMs: 20 },
  );
}

/** Redeems a promise on `origin` until it answers (as a client does, every 200 ms), at most `timeoutMs`. */
async function redeemed(origin: string, token: string, timeoutMs: number): Promise<LiteResult> {
  return await readUntil(
    () => callTool(origin, "redeem", { promise: token }),
    (result) => result._meta.response_type !== "promise",
    "an answer to the redeem",
    { timeoutMs, everyMs: 200 },
  );
}

describe("examples/queue/README.md: two web instances and two workers on one Redis", { skip: REDIS_MISSING }, () => {
  it("names a command line for each process on this runtime, and the call", () => {
    assert.equal(webCommands.length, 2, `two web instances on ${RUNTIME}`);
    assert.deepEqual(webCommands.map(({ env }) => env.PORT), ["8001", "8002"]);
    assert.equal(workerCommands.length, 2, `two workers on ${RUNTIME}`);
    assert.ok((settings.MCPLITE_SECRET ?? "").length >= 32, "the README sets a secret of 32 bytes or more");
    assert.ok(callBlock?.code.includes("127.0.0.1:8001") && callBlock.code.includes("127.0.0.1:8002"));
    assert.match(approvalBlock?.code ?? "", /127\.0\.0\.1:8001/);
    assert.match(approvalRedeem?.code ?? "", /127\.0\.0\.1:8002 redeem/);
  });

  it(
    "a call on instance 1 is redeemed on instance 2; a child job's report approved at its signal URL; stopped mid-report, it resumes",
    {
      timeout: 180_000,
    },
    async () => {
      // Each web instance on a port the system picks (PORT=0), read from the line where it says where it listens.
      const webs = webCommands.map(({ argv, env }) => start(argv, { ...env, PORT: "0" }));
      const origins = await Promise.all(webs.map(({ child }) => listening(child, START_MS)));
      const workers = workerCommands.map(({ argv, env }) => start(argv, env));
      await Promise.all(workers.map((worker) => said(worker, /taking jobs/)));

      // The README's commands in bash, as a reader runs them: ports 8001 and 8002 are this test's web instances.
      const toWeb = (code: string) =>
        code.replaceAll("127.0.0.1:8001", new URL(origins[0]).host)
          .replaceAll("127.0.0.1:8002", new URL(origins[1]).host);
      const env = { ...process.env, PATH: `${ROOT}node_modules/.bin:${process.env.PATH}` };
      // The approval's call first (its token kept, as in the reader's shell): its child builds a report while step 5
      // builds another, on the same two workers.
      const asked = await run(
        "bash",
        ["-e", "-o", "pipefail", "-c", `${toWeb(approvalBlock!.code)}\nprintf %s "$token"`],
        30_000,
        ROOT,
        env,
      );
      assert.equal(asked.code, 0, `${asked.stdout}${asked.stderr}`);
      const token = asked.stdout;
      assert.match(token, /^mcl1\./, "the call answered a promise at once");

      // Step 5: the call on instance 1, the redeem on instance 2.
      // The token the block's call kept, printed after it: a promise token, so the call answered before the report
      // was built (how many times the redeem then waits depends on how fast its process starts on this machine).
      const callAndToken = `${toWeb(callBlock!.code)}\nprintf '\\ntoken=%s\\n' "$token" >&2`;
      const ran = await run("bash", ["-e", "-o", "pipefail", "-c", callAndToken], 90_000, ROOT, env);
      assert.equal(ran.code, 0, `${ran.stdout}${ran.stderr}`);
      assert.match(ran.stderr, /^token=mcl1\./m, "the call answered a promise before the report was built");
      const report: Report = JSON.parse(ran.stdout);
      assert.deepEqual({ region: report.region, quarter: report.quarter }, { region: "emea", quarter: "2026-Q3" });
      const pids = workers.map((w) => w.pid);
      for (const ran of [report.steps.orders, report.steps.revenue, report.builtBy]) {
        assert.ok(pids.includes(ran.pid), `run by a worker: ${JSON.stringify(report)}`);
        assert.ok(webs.every((w) => w.pid !== ran.pid));
      }
      assert.equal(report.builtBy.pid, report.steps.revenue.pid, "the last step ran where the work ended");
      assert.ok(await published(report.published), "the revenue step's write, under its key, is in Redis");

      // The approval: the curl command a worker printed (a POST to the signal URL), then the redeem. A child job built
      // the report; the parent waited in the queue, holding no worker slot.

      const line = await printed(workers, /^approve the amer report for 2026-Q3 \(revenue \d+\): curl /, 60_000);
      const approve = line.slice(line.indexOf("curl "));
      const url = /'(http:\/\/[^']+\/signals\/[^']+)'/.exec(approve)?.[1];
      assert.equal(new URL(url!).host, new URL(origins[0]).host, "under the host the call came to");
      const posted = await run("bash", ["-e", "-c", approve], 30_000, ROOT, env);
      assert.equal(posted.code, 0, posted.stderr);
      assert.deepEqual(JSON.parse(posted.stdout), { status: 202, message: "Signalled" });
      // The capability signals once: a replay of the same POST is refused, and so is the URL with its token changed.
      const post = (to: string) => fetch(to, { method: "POST", body: JSON.stringify({ by: "eve" }) });
      assert.equal((await post(url!)).status, 409);
      const tampered = tamper(url!); // the token's MAC changed (it ends the URL)
      assert.notEqual(tampered, url);
      assert.equal((await post(tampered)).status, 403);
      const redeemed2 = await run(
        "bash",
        ["-e", "-c", `token='${token}'\n${toWeb(approvalRedeem.code)}`],
        90_000,
        ROOT,
        env,
      );
      assert.equal(redeemed2.code, 0, `${redeemed2.stdout}${redeemed2.stderr}`);
      const approved: { report: Report; approvedBy: string } = JSON.parse(redeemed2.stdout);
      assert.equal(approved.approvedBy, "ada");
      assert.deepEqual({ region: approved.report.region, quarter: approved.report.quarter }, {
        region: "amer",
        quarter: "2026-Q3",
      });
      for (const ran of [approved.report.steps.orders, approved.report.steps.revenue, approved.report.builtBy]) {
        assert.ok(pids.includes(ran.pid), `the child's steps run by a worker: ${redeemed2.stdout}`);
      }
      assert.ok(await published(approved.report.published), "the child's revenue step wrote its key");

      // SIGTERM while a worker runs a second report (its first start): its work goes on to its sleep, then both workers
      // exit; the report sleeps in the queue (BullMQ's delayed set) with no worker alive, and is not lost.
      const { hostname, port } = new URL(redis!.url);
      const queue = new Queue("reports", { connection: { host: hostname, port: Number(port) } });
      let second: LiteResult;
      try {
        // Connected, the first report's job listed, before the second can start.
        const earlier = new Set((await queue.getJobs()).map((job) => job.id!));
        second = await callTool(origins[0], "build_report", { region: "apac", quarter: "2026-Q4" });
        assert.equal(second._meta.response_type, "promise", JSON.stringify(second));
        await firstStart(queue, earlier, 30_000);
        for (const worker of workers) worker.child.kill("SIGTERM");
      } finally {
        await queue.close();
      }
      const codes = await Promise.all(workers.map((worker) => worker.exited));
      for (const [i, worker] of workers.entries()) {
        assert.match(worker.log(), /drained\n$/, worker.log());
        // Deno's node:child_process reports a child it sent a signal to as ended by it (code null), even when it exited 0.
        if (!("Deno" in globalThis)) assert.equal(codes[i], 0, worker.log());
      }
      // The worker that had taken it says it drains one job; on a loaded machine the signal may come while BullMQ
      // hands the job to the worker's handler, which then counts none, and the job goes back to the queue unstarted.
      const drained = workers.map((w) => Number(/draining (\d+) running job/.exec(w.log())?.[1]));
      assert.ok(
        drained.every((n) => n <= 1) && drained.reduce((a, b) => a + b) <= 1,
        workers.map((w) => w.log()).join(),
      );
      await counted(["delayed", "waiting"], 5_000).catch((error: Error) => {
        throw new Error(`${error.message}; the workers said: ${workers.map((w) => w.log()).join(" | ")}`);
      });

      // One worker started again (the README's command) takes the report up when it wakes and finishes it; the step the
      // stopped worker ran is not run again: its recorded value names that worker.
      const again = start(workerCommands[0].argv, workerCommands[0].env);
      await said(again, /taking jobs/);
      const answer = await redeemed(origins[1], second._meta.promise_token!, 60_000);
      assert.equal(answer._meta.response_type, "answer", JSON.stringify(answer));
      const resumed = answer.structuredContent!;
      assert.equal(resumed.builtBy.pid, again.pid, JSON.stringify(resumed));
      assert.equal(resumed.steps.revenue.pid, again.pid, JSON.stringify(resumed));
      const drainer = drained.indexOf(1);
      if (drainer >= 0) assert.equal(resumed.steps.orders.pid, workers[drainer].pid, "the first step ran once, there");
      else assert.ok([...pids, again.pid].includes(resumed.steps.orders.pid), JSON.stringify(resumed));
      again.child.kill("SIGTERM");
      await said(again, /drained\n$/);
    },
  );
});
