/**
 * The one error family of @mcplite/sdk, for servers and clients alike (as Connect-ES has one `ConnectError` and
 * one `Code`): {@link McpliteError} and its `code` ({@link ErrorCode}); {@link ProtocolError}, the protocol
 * refused; {@link ToolError}, the tool failed; {@link UrlElicitationRequiredError}, a page to visit first. A
 * handler throws them, and the client throws the same ones back off every wire and through `proxy()`. Beside them,
 * {@link NonRetryableError} tells the server not to run work again (`retry`); it never crosses a wire.
 *
 * Why: docs/concepts/errors.md
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { createClient } from "../client/mod.ts";
 * import { ErrorCode, ProtocolError, ToolError } from "./mod.ts";
 *
 * const reserve = defineTool("reserve")
 *   .input(v.object({ seats: v.number() }))
 *   .handle(({ seats }) => {
 *     if (seats > 4) throw new ToolError("no table that large tonight", { data: { largest: 4 } });
 *     return { reserved: seats };
 *   });
 * const client = createClient(createServer({ name: "bistro", version: "1.0.0" }).tool(reserve));
 *
 * await assert.rejects(client.call("reserve", { seats: 6 }), (error) =>
 *   error instanceof ToolError && error.tool === "reserve" && (error.data as { largest: number }).largest === 4);
 * await assert.rejects(client.call("reserve", { seats: "six" } as never), (error) =>
 *   error instanceof ProtocolError && error.code === ErrorCode.InvalidArguments);
 * ```
 *
 * @module
 */
export { ErrorCode, McpliteError, ProtocolError, ToolError } from "./error.ts";
export type { McpliteErrorOptions } from "./error.ts";
export { UrlElicitationRequiredError } from "../core/call/elicitation.ts";
export { NonRetryableError } from "./non-retryable-error.ts";
export { WaitTimeoutError } from "./wait-timeout-error.ts";
export { ChildWorkError } from "./child-work-error.ts";
