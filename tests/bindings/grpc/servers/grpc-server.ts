/**
 * The gRPC test server as a program, for runtimes other than the test's own (bundled for Node):
 * prints its port, serves until stdin closes.
 */
import process from "node:process";
import { serveGrpc } from "../../../../src/bindings/grpc/mod.ts";
import { grpcServer } from "../grpc-fixtures.ts";

const listener = await serveGrpc(grpcServer(), { port: 0, closeGraceMs: 200 });
console.log(JSON.stringify({ port: listener.port }));
process.stdin.resume();
process.stdin.on("close", () => listener.close().then(() => process.exit(0)));
