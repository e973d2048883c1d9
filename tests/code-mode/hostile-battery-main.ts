/**
 * Run by Bun, Node 22 and `deno run` (tests/code-mode/hostile-battery.test.ts), as a server runs: issue 86's hostile
 * battery against a server in this process, its report printed as one line of JSON.
 */
import process from "node:process";
import { runBattery } from "./hostile-battery.ts";

// The programs' time and CPU limits, when the test gives them (its first and second arguments).
const [timeMs, cpuMs] = [process.argv[2], process.argv[3]].map((ms) => ms === undefined ? undefined : Number(ms));
console.log(JSON.stringify(await runBattery({ timeMs, cpuMs })));
