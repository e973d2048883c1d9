/**
 * A stdio server for the proxy's error tests: `die` writes a secret to stderr, as a crashing server's
 * stack or configuration dump would, then ends the process mid-call. Run as a child process.
 */
import process from "node:process";
import { createServer, defineTool } from "../../mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";

const die = defineTool("die").describe("Writes a secret to stderr and exits").handle(() => {
  process.stderr.write(`fatal: could not open vault with STDERR-SECRET-5c1d\n`, () => process.exit(3));
  return new Promise<never>(() => {});
});
serveStdio(createServer({ name: "leaking", version: "1.0.0" }).tool(die));
