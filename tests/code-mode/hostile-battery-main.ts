/**
 * Run by Node 22 and by `deno run` (tests/code-mode/hostile-battery.test.ts), as a server runs: issue 86's hostile
 * battery against a server in this process, its report printed as one line of JSON.
 */
import { runBattery } from "./hostile-battery.ts";

console.log(JSON.stringify(await runBattery()));
