/**
 * The server's budgets on `server.fetch` (`limits`): each route's request takes a call and the bytes of
 * its body from the budgets before its body is read, and gives them back when its answer is ready (the
 * bytes) and complete (the call: a streamed answer's last event). Past a budget the request is refused
 * in its route's shape, with `Retry-After` (RFC 9110 §10.2.3): 503 past the instance's budget
 * (RFC 9110 §15.6.4), 429 past the caller's share (RFC 6585 §4).
 *
 * @module
 */
import { ANONYMOUS, type BudgetRefusal, type Budgets } from "../core/instance/budgets.ts";
import { callerOf } from "../core/call/call-meta.ts";
import type { Host } from "../core/call/host.ts";
import type { Route } from "./binding-contract.ts";
import type { ObservedEdge } from "./edge-observer.ts";
import { peerOf } from "../runtime/peer.ts";
import { isSseResponse } from "./responses.ts";

/**
 * Puts every route behind the server's budgets. Runs inside authentication (a tokenless request is
 * refused before it costs anything), so that a caller is its authenticated subject when there is one.
 *
 * @param routes The bindings' routes, by full path.
 * @param budgets The server's budgets.
 * @param maxBodyBytes What a body without `Content-Length` may grow to (`maxBodyBytes`).
 * @param gate The server's gate, told of each refusal (`gate.refused`).
 * @returns The routes, admitting their requests.
 */
export function budgetedRoutes(
  routes: ReadonlyMap<string, Route>,
  budgets: Budgets,
  maxBodyBytes: number,
  gate?: ObservedEdge,
): Map<string, Route> {
  const admitted = new Map<string, Route>();
  for (const [path, route] of routes) admitted.set(path, budgeted(route, budgets, maxBodyBytes, gate));
  return admitted;
}

function budgeted(route: Route, budgets: Budgets, maxBodyBytes: number, gate?: ObservedEdge): Route {
  const keyOf = budgets.callerKey;
  return {
    ...route,
    handle(request: Request, host: Host): Response | Promise<Response> {
      const auth = host.auth;
      const caller = keyOf?.(request, auth) ?? callerOf(auth) ?? peerOf(request, host.env) ?? ANONYMOUS;
      const bytes = bodyBytesOf(request, maxBodyBytes);
      const refusal = budgets.admit(caller, bytes);
      if (refusal !== undefined) {
        const response = refused(route, refusal);
        gate?.refused?.(refusal, request, response.status);
        return response;
      }
      // The call is given back once: when the answer is complete, or earlier when the request is exempted from the
      // budgets (SEP-3415 "Push": "server SDKs MUST exempt events/stream from any general cap on concurrent requests").
      let calls = 1;
      const giveCall = () => (budgets.give("calls", calls, caller), calls = 0);
      const admittedHost: Host = { ...host, auth, caller, exempt: giveCall };
      const ready = (response: Response) => {
        if (bytes > 0) budgets.give("bodyBytes", bytes, caller);
        return isSseResponse(response) ? untilEnd(response, giveCall) : (giveCall(), response);
      };
      // A route that answered at once (a synchronous tool) is given back at once: no microtask hop.
      const answer = route.handle(request, admittedHost);
      return answer instanceof Promise
        ? answer.then(ready, (error: unknown) => {
          budgets.release(caller, bytes, calls);
          throw error;
        })
        : ready(answer);
    },
  };
}

/**
 * The bytes a request's body may hold: its `Content-Length` (within `maxBodyBytes`: a larger one is
 * refused unread), or `maxBodyBytes` for a body sent in chunks (RFC 9112 §6.1), which may grow to it;
 * none for a request without either (RFC 9112 §6.3: it has no body; or one built in process, already in memory).
 */
function bodyBytesOf(request: Request, maxBodyBytes: number): number {
  const headers = request.headers;
  const declared = headers.get("content-length");
  if (declared !== null) {
    const length = Number(declared);
    return length >= 0 && length <= maxBodyBytes ? length : 0;
  }
  return headers.has("transfer-encoding") ? maxBodyBytes : 0;
}

/** The route's refusal, as 503 (the instance's budget) or 429 (the caller's share), with `Retry-After`. */
function refused(route: Route, refusal: BudgetRefusal): Response {
  const shaped = route.refuse(refusal, null);
  const headers = new Headers(shaped.headers);
  headers.set("retry-after", String(Math.ceil(refusal.data.retryAfterMs / 1000)));
  return new Response(shaped.body, { status: refusal.data.scope === "instance" ? 503 : 429, headers });
}

/** The same answer, calling `end` once when its stream ends, fails or is cancelled (the client went away). */
function untilEnd(response: Response, end: () => void): Response {
  const reader = response.body!.getReader();
  let open = true;
  const close = () => {
    if (open) end();
    open = false;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          close();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    cancel(reason) {
      close();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return new Response(body, response);
}
