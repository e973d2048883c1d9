/**
 * Run by Node 22 (tests/client/serialise-client.test.ts): probes a client over each wire as loggers and test
 * frameworks would, waits for any call that started, and prints what the server and the fetch spy saw. A call
 * the probes started would reject unhandled (the server knows no tool `toJSON`…) and end the process.
 */
import process from "node:process";
import { probe, spiedClient } from "./probes.ts";

const counted: Record<string, [string[], string[]]> = {};
let printed: Record<string, unknown> = {};
for (const wire of ["mcp-lite", "mcp"] as const) {
  const { client, requests, methods } = spiedClient(wire);
  printed = await probe(client);
  console.error(client); // as a logger prints it
  counted[wire] = [requests, methods];
}
// About time: a call a probe started would reach the server, or reject unhandled, within this while.
await new Promise((resolve) => setTimeout(resolve, 200));
process.stdout.write(JSON.stringify({ counted, json: printed.json, inspect: printed.inspect }));
