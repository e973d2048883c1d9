/**
 * A server's `serveGrpc()` listener on 127.0.0.1 for the tests of a `describe` block (started before
 * them, closed after), and gRPC or Connect clients of it over HTTP/2.
 */
import { after, before } from "node:test";
import { type Client, createClient } from "@connectrpc/connect";
import { closeClientSessions, connectOverH2, grpcOverH2 } from "./h2-sessions.ts";
import { type GrpcListener, MCPLite, serveGrpc } from "../../src/bindings/grpc/mod.ts";

/**
 * Serves a server with `serveGrpc()` around the tests of the current block.
 *
 * @param server The server.
 * @returns The listener (once the tests run) and a client of it per protocol.
 */
export function grpcListener(server: Parameters<typeof serveGrpc>[0]): {
  listener: () => GrpcListener;
  client: (kind: "gRPC" | "Connect") => Client<typeof MCPLite>;
} {
  let listener: GrpcListener;
  before(async () => {
    listener = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
  });
  after(async () => {
    closeClientSessions(); // before the listener's GOAWAY (tests/helpers/h2-sessions.ts)
    await listener.close();
  });
  return {
    listener: () => listener,
    client: (kind) =>
      createClient(
        MCPLite,
        kind === "gRPC" ? grpcOverH2(listener.url) : connectOverH2(listener.url),
      ),
  };
}
