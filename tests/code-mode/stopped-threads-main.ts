/**
 * Run by Node 22 and by `deno run` (tests/code-mode/stopped-threads.test.ts): the report of stopped-threads.ts, as
 * one line of JSON; then the process exits by itself, its executor's warm thread idle (exit code 1 if it does not).
 */
import process from "node:process";
import { unrefTimer } from "../../src/runtime/unref-timer.ts";
import { stoppedThreads } from "./stopped-threads.ts";

console.log(JSON.stringify(await stoppedThreads()));
// Nothing else holds this process: this timer fires only where the idle thread keeps it alive.
unrefTimer(setTimeout(() => {
  console.error("the executor's idle thread kept the process alive");
  process.exitCode = 1;
}, 3_000));
