/**
 * Run by Node 22 and by `deno run` (tests/code-mode/hostile-battery.test.ts), as a server runs: issue 86's hostile
 * battery against a server in this process, its report printed as one line of JSON.
 */
import process from "node:process";
import { runBattery } from "./hostile-battery.ts";

// The programs' time limit, when the test gives one (its first argument).
const timeMs = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
console.log(JSON.stringify(await runBattery(undefined, timeMs)));
