/**
 * `inputRounds`: the input-round support a server plugs in (MCP 2026-07-28, multi round-trip requests;
 * MCP-lite spec v0.042 §3.7): the token codec that signs each round's `requestState`. `createServer` of
 * `@mcplite/sdk` always passes it; a server from `@mcplite/sdk/lite` has it only when given it (or
 * `longRunning`, whose tokens sign rounds too), so that a bundle whose handlers ask the client nothing
 * leaves out the codec and its keys.
 *
 * @module
 */
import { createTokens, type Tokens, type TokensOptions } from "../core/instance/tokens.ts";
import { type Capability, capability } from "../server/server-capability.ts";

/**
 * Input-round support, for `createServer({ inputRounds })` of `@mcplite/sdk/lite` (that of
 * `@mcplite/sdk` has it already): handlers may then ask the client with `ctx.elicit()`, `ctx.sample()`
 * and `ctx.roots()`, and the call answers `input_required` with a signed `requestState`.
 *
 * Opaque: the server runs it with its token options.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool, inputRounds } from "../lite/mod.ts";
 *
 * const greet = defineTool("greet")
 *   .describe("Greets the user by name, asking for it")
 *   .input(v.object({}))
 *   .handle(async (_args, ctx) => {
 *     const requestedSchema = { type: "object", properties: { name: { type: "string" } } };
 *     const answer = await ctx.elicit("name", { message: "Your name?", requestedSchema });
 *     return answer.action === "accept" ? `hello ${answer.content?.name}` : "hello";
 *   });
 * const server = createServer({ name: "greeter", version: "1.0.0", secret: "s".repeat(32), inputRounds })
 *   .tool(greet);
 * const first = await server.call("greet", {});
 * assert.equal(first.kind, "input_required");
 * ```
 */
export const inputRounds: Capability<"inputRounds"> = /* @__PURE__ */ capability(
  "inputRounds",
  (options: TokensOptions): Tokens => createTokens(options),
);
