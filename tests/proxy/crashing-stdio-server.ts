/**
 * A stdio server for the proxy's respawn test: `pid` answers its process id, `crash` ends the process
 * mid-call. Run as a child process.
 */
import process from "node:process";
import { createServer, defineTool } from "../../mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";

const pid = defineTool("pid").describe("Answers the process id").handle(() => String(process.pid));
const crash = defineTool("crash").describe("Ends the process mid-call").handle(() => process.exit(3));
serveStdio(createServer({ name: "crashing", version: "1.0.0" }).tool(pid).tool(crash));
