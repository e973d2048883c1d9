/**
 * The server the deadline tests start in a child process (Node 22): the fixture server through
 * `serve()`, with `bodyTimeoutMs` and `maxBodyBytes` from its arguments. Prints `{"port":…}` once
 * listening, and stops when its stdin closes.
 */
import process from "node:process";
import { serve } from "../../mod.ts";
import { fixtureServer } from "../helpers/fixtures.ts";

const [bodyTimeoutMs, maxBodyBytes] = process.argv.slice(2).map(Number);
const listener = await serve(fixtureServer({ bodyTimeoutMs, maxBodyBytes }), {
  port: 0,
  hostname: "127.0.0.1",
  quiet: true,
});
console.log(JSON.stringify({ port: listener.port }));
process.stdin.resume();
process.stdin.on("end", () => void listener.close().then(() => process.exit(0)));
