/**
 * Run by Node 22 and by `deno run` (tests/code-mode/stopped-threads.test.ts): the report of stopped-threads.ts, as
 * one line of JSON.
 */
import { stoppedThreads } from "./stopped-threads.ts";

console.log(JSON.stringify(await stoppedThreads()));
