/**
 * The server's budgets on `serveGrpc()`'s HTTP/2 listener (`limits`): each call takes a call (and the
 * bytes its `content-length` declares, when it declares one) before its body is read, and gives them
 * back when its stream closes. The caller is the client's address: the listener authenticates a call
 * later, inside its method. Past a budget the call is refused `RESOURCE_EXHAUSTED` (gRPC status codes)
 * with `retry-after` and the refusal's `ErrorInfo` (`processed: false`, `retryAfterMs`), 429 on Connect. A push
 * stream gives its call back when it is held open (SEP-3415 "Push": exempt from the request budgets).
 *
 * @module
 */
import { budgeting } from "../../core/mod.ts";
import type { Gate, Host } from "../../server/mod.ts";
import { refuseNodeRequest } from "./node-guard.ts";

/** What the budgets read of a `node:http2` request (`Http2ServerRequest`). */
interface BudgetedRequest {
  readonly authority: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly socket: { readonly remoteAddress?: string } | null;
}

/** How a refusal is written, and when the call ends (`Http2ServerResponse`). */
interface BudgetedResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(): unknown;
  end(body: Uint8Array): unknown;
  once(event: "close", listener: () => void): unknown;
}

/**
 * Admits a call within the server's budgets, or answers its refusal.
 *
 * @param budgets The server's budgets.
 * @param maxBodyBytes The largest body (a declared length past it is refused unread by the method).
 * @param request The request.
 * @param response Its response: the budgets are given back when it closes.
 * @param reported The server's gate, told of a refusal (`gate.refused`).
 * @param refused The refusal already decided for this call (by {@link admitNodeStream}), if any.
 * @returns What exempts the admitted call from the request budgets (`Host.exempt`, for its host), and who its caller
 *   is until it is authenticated (`Host.caller`: its address, as the budgets count it); `undefined` when it
 *   was refused.
 */
export function admitNodeCall(
  budgets: budgeting.Budgets,
  maxBodyBytes: number,
  request: BudgetedRequest,
  response: BudgetedResponse,
  reported?: Pick<Gate, "refused">,
  refused?: budgeting.BudgetRefusal,
): Required<Pick<Host, "exempt">> & Pick<Host, "caller"> | undefined {
  const caller = request.socket?.remoteAddress ?? budgeting.ANONYMOUS;
  const bytes = declaredBytes(request.headers, maxBodyBytes);
  const refusal = refused ?? budgets.admit(caller, bytes);
  if (refusal !== undefined) {
    refuseNodeRequest(request, response, refusal, {
      "retry-after": String(Math.ceil(refusal.data.retryAfterMs / 1000)),
    }, reported);
    return undefined;
  }
  let calls = 1; // 0 once exempted: the call was given back
  response.once("close", () => budgets.release(caller, bytes, calls));
  return { exempt: () => (budgets.give("calls", calls, caller), calls = 0), caller: request.socket?.remoteAddress };
}

/** What the budgets read of a core `node:http2` stream (`ServerHttp2Stream`). */
interface BudgetedStream {
  readonly session?: { readonly socket?: { readonly remoteAddress?: string } } | null;
  on(event: "close", listener: () => void): unknown;
}

/**
 * Admits a call on the core stream API within the server's budgets, as {@link admitNodeCall} does,
 * or returns the refusal for {@link admitNodeCall} to answer (nothing taken).
 *
 * @param budgets The server's budgets.
 * @param maxBodyBytes The largest body.
 * @param stream The call's stream: the budgets are given back when it closes.
 * @param headers Its request headers.
 * @returns `undefined` when admitted; the refusal otherwise.
 */
export function admitNodeStream(
  budgets: budgeting.Budgets,
  maxBodyBytes: number,
  stream: BudgetedStream,
  headers: BudgetedRequest["headers"],
): budgeting.BudgetRefusal | undefined {
  const caller = stream.session?.socket?.remoteAddress ?? budgeting.ANONYMOUS;
  const bytes = declaredBytes(headers, maxBodyBytes);
  const refusal = budgets.admit(caller, bytes);
  // `on`, not `once`: a stream closes once, and `once` costs a wrapper and a removal per call.
  if (refusal === undefined) stream.on("close", () => budgets.release(caller, bytes, 1));
  return refusal;
}

/** The body bytes a call takes: its declared `content-length` when within `maxBodyBytes`, else none. */
function declaredBytes(headers: BudgetedRequest["headers"], maxBodyBytes: number): number {
  const declared = Number(headers["content-length"] ?? NaN);
  return declared >= 0 && declared <= maxBodyBytes ? declared : 0;
}
