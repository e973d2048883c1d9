/**
 * This package with the gRPC binding mounted on its `fetch` (`grpcBinding()`: Connect and gRPC-Web).
 * Its own module, so that the other servers never load protobuf.
 *
 * @module
 */
import { createServer, defineTool, type Server } from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { AddInput } from "./common.ts";

const add = defineTool("add")
  .describe("Adds two numbers")
  .input(AddInput)
  .handle(({ a, b }) => ({ sum: a + b }));

/** The `add` server with Connect / gRPC-Web routes. */
// deno-lint-ignore ban-types
export const oursGrpc: Server<{}> = createServer({ name: "bench", version: "1.0.0", bindings: [grpcBinding()] }).tool(
  add,
);
