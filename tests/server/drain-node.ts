/**
 * Run by Node 22 (tests/server/drain.test.ts), as a server runs: ./drain-scenario.ts's close while clients listen,
 * on Node's own `node:http` server, its report printed as one line of JSON.
 */
import { closeWhileListening } from "./drain-scenario.ts";

console.log(JSON.stringify(await closeWhileListening()));
