/**
 * The server as bindings and carriers see it: the one module `src/bindings`, `src/stdio` and
 * `src/websocket` import from `src/server`. It names the binding contract, the gate's types, body and
 * JSON reading, response shapes, the mark of a capability given as a value, and the listener's way in;
 * nothing else of the server's internals. Growing it is a decision (`tests/boundaries.test.ts` holds
 * bindings and carriers to it).
 *
 * @module
 */
export { answersRefusal, refusalAnswered } from "./answered-refusal.ts";
export { NO_HOST, withCaller } from "./binding-contract.ts";
export type { Binding, Host, ResolvedOptions, Route, RouteHandler, ServerCore } from "./binding-contract.ts";
export { matchesEtag } from "./conditional.ts";
export type { Gate } from "./gate.ts";
export type { RequestGuard } from "./guard.ts";
export { attachListener } from "./listener.ts";
export { parseJson } from "./parse-json.ts";
export type { ServedVersions } from "./protocol-versions.ts";
export { readBodyBytes, timedOut, tooLarge } from "./read-body.ts";
export type { BodyCheck, BodyLimits, BodyReader } from "./read-body.ts";
export { acceptsEventStream, answerJson, readJson, readJsonNow } from "./read-json.ts";
export { answers } from "../runtime/answer-makers.ts";
export {
  errorHeaders,
  JSON_HEADERS,
  JSON_INIT,
  JSON_VALUE_INIT,
  jsonInit,
  responseInit,
  sseResponse,
  streamingResponse,
} from "./responses.ts";
export { retryAfterOf } from "./retry-after.ts";
export type { Server } from "./server.ts";
export { holdMsOf, normalisePath } from "./server-options.ts";
export { type Capability, capability } from "./server-capability.ts";
export { acceptWebSocket } from "./upgrade.ts";
export type { AcceptedSocket, SocketEvents } from "./upgrade.ts";
