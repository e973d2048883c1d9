/**
 * A stdio server for the proxy's restart backoff test: each start appends a line to the log file (its first
 * argument); it exits at once, as a server with a broken configuration does, until the flag file (its
 * second argument) exists, then serves `pid`. Run as a child process.
 */
import { appendFileSync, existsSync } from "node:fs";
import process from "node:process";
import { createServer, defineTool } from "../../mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";

const [log, flag] = process.argv.slice(-2);
appendFileSync(log, `${process.pid}\n`);
if (!existsSync(flag)) process.exit(1);
const pid = defineTool("pid").describe("Answers the process id").handle(() => String(process.pid));
serveStdio(createServer({ name: "flapping", version: "1.0.0" }).tool(pid));
