/**
 * The server the Python clients talk to: the fixture tools, and `revision`, which answers the protocol
 * revision its request arrived on as the server read it, so a test sees what the server spoke rather
 * than what the client believes. Imported, it gives the server; run (`bun tests/interop/peer-server.ts`),
 * it serves it on stdio.
 */
import { defineTool } from "../../mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";
import { fixtureServer } from "../helpers/fixtures.ts";

const revision = defineTool("revision")
  .describe("Answers the protocol revision of this request")
  .handle((_args, ctx) => ctx.meta.protocolVersion ?? "none");

/** The fixture server with the `revision` tool. */
export function peerServer() {
  return fixtureServer({ name: "peer" }).tool(revision);
}

if (import.meta.main) serveStdio(peerServer());
