// `npm run bench:guard`: the tools/call regression guard (bench/guard.ts) under Bun and under Deno at once, one
// process per core (each measures ratios to a floor in its own process, interleaved, so a second process on the
// other core skews neither side), then gRPC over h2c and the workload alone, one after the other (h2load, the
// workload's load generator and the servers they load need both cores).
// Bun's output streams; Deno's is held and printed after it. Any run failing fails the guard. About a minute
// less at the end of CI than the two runs one after the other.
// Plain JavaScript for Node, so that a fresh machine with Node and npm only runs it.
import { spawn } from "node:child_process";
import process from "node:process";
import { repoEnv } from "./repo-bin.mjs";

const env = repoEnv();

/** Runs a command; answers its exit code and, when `hold` is set, its output instead of printing it. */
function run(command, args, hold = false) {
  const child = spawn(command, args, { env, stdio: ["ignore", hold ? "pipe" : "inherit", hold ? "pipe" : "inherit"] });
  let held = "";
  if (hold) {
    child.stdout.on("data", (chunk) => held += chunk);
    child.stderr.on("data", (chunk) => held += chunk);
  }
  return new Promise((resolve) => {
    child.once("error", (error) => resolve({ code: 127, held: `${held}${command}: ${error.message}\n` }));
    child.once("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), held }));
  });
}

const deno = run("deno", ["run", "-A", "bench/guard.ts"], true);
const bun = await run("bun", ["bench/guard.ts", "--no-grpc", "--no-workload"]);
const { code: denoCode, held } = await deno;
process.stdout.write(held);
const alone = await run("bun", ["bench/guard.ts", "--grpc-only", "--workload-only"]);
process.exit([bun.code, denoCode, alone.code].every((code) => code === 0) ? 0 : 1);
