/**
 * `subscriptions/listen` streams (MCP 2026-07-28) kept open across restarts: the dev server relays the
 * child's stream and, when the child ends for a restart, sends the same listen request to the next child,
 * drops its acknowledgement (the client has one), and tells the client which lists changed
 * (`notifications/<kind>/list_changed`, tagged with the subscription id), so a client such as the
 * official SDK's, which never listens again by itself, lists again and sees the edit.
 *
 * @module
 */
import { notificationMessage } from "../../bindings/jsonrpc.ts";
import { META } from "../../internal/mcp-wire.ts";
import { isObject } from "../../internal/is-object.ts";
import { changedLists, type ListKind } from "./dev-lists.ts";
import type { DevState, DevSupervisor } from "./dev-supervisor.ts";

/** The state of a child that serves. */
export type ReadyState = Extract<DevState, { phase: "ready" }>;

/** How long a stream that ended waits to learn whether its child is restarting, in ms. */
const RESTART_GRACE_MS = 1000;
/** How often a stream waiting for the next child gets a comment, in ms. */
const KEEP_ALIVE_MS = 15_000;
/** The filter flag of each list (MCP 2026-07-28, `subscriptions/listen`). */
const FLAGS: Record<ListKind, string> = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
};

/** A listen request, as the dev server re-sends it. */
export interface Listen {
  /** The request's id: the subscription id every notification carries. */
  readonly id: unknown;
  /** The lists whose changes the client asked to hear. */
  readonly kinds: readonly ListKind[];
}

/**
 * Reads a listen request's body.
 *
 * @param body The body.
 * @returns What the dev server needs of it, or `undefined` when it is not a listen request it can follow.
 */
export function parseListen(body: string): Listen | undefined {
  let rpc: unknown;
  try {
    rpc = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(rpc) || rpc.method !== "subscriptions/listen" || !isObject(rpc.params)) return undefined;
  const wanted = rpc.params.notifications;
  if (!isObject(wanted)) return undefined;
  const kinds = (Object.keys(FLAGS) as ListKind[]).filter((kind) => wanted[FLAGS[kind]] === true);
  return { id: rpc.id, kinds };
}

/**
 * The client's stream: the child's events, then after each restart the next child's, with the
 * `list_changed` of the lists that changed. Whole events only reach the client: one cut by a child
 * that ended is dropped.
 *
 * @param first The first child's answer (an SSE stream).
 * @param state The child that answered.
 * @param listen The listen request.
 * @param supervisor The children's supervisor.
 * @param reopen Sends the listen request to a child.
 * @param signal The client went away.
 * @returns The body for the client.
 */
export function followListen(
  first: Response,
  state: ReadyState,
  listen: Listen,
  supervisor: DevSupervisor,
  reopen: (state: ReadyState, signal: AbortSignal) => Promise<Response>,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const stop = new AbortController();
  const stopped = AbortSignal.any([signal, stop.signal]);
  const encoder = new TextEncoder();
  const meta = { [META.subscriptionId]: listen.id };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      void (async () => {
        let current: Response | undefined = first;
        let serving = state;
        let next = state;
        let skipAck = false;
        while (current?.body && !stopped.aborted) {
          await pipeEvents(current.body, stopped, (event) => {
            if (skipAck && event.includes("notifications/subscriptions/acknowledged")) {
              skipAck = false;
              // The new child listens: what changed since the last one is news to the client.
              for (const kind of changedLists(serving.lists, next.lists)) {
                if (listen.kinds.includes(kind)) {
                  send(`data: ${notificationMessage(`notifications/${kind}/list_changed`, { _meta: meta })}\n\n`);
                }
              }
              serving = next;
              return;
            }
            send(event);
          });
          if (stopped.aborted || !(await restarting(supervisor, serving.generation))) break;
          // A comment now and then while no child serves (a load failure waits for the next edit): the
          // connection stays busy, and the runtimes' idle timeouts leave it open.
          const beat = setInterval(() => send(": mcplite dev: restarting\n\n"), KEEP_ALIVE_MS);
          const after = await supervisor.nextReady(serving.generation, stopped).finally(() => clearInterval(beat));
          if (after.phase !== "ready" || after.generation <= serving.generation || stopped.aborted) break;
          next = after;
          current = await reopen(next, stopped).catch(() => undefined);
          if (!current?.ok || !current.headers.get("content-type")?.startsWith("text/event-stream")) break;
          skipAck = true;
        }
        controller.close();
      })().catch(() => {
        try {
          controller.close();
        } catch { /* cancelled */ }
      });
    },
    cancel() {
      stop.abort();
    },
  });
}

/**
 * Whether the child of `generation` is going away (stopped for a restart, crashed, or replaced) rather
 * than having ended the stream itself; a child that is ending may still count as ready for a moment.
 */
async function restarting(supervisor: DevSupervisor, generation: number): Promise<boolean> {
  const gone = () =>
    supervisor.stopping || supervisor.state.phase !== "ready" || supervisor.state.generation !== generation;
  const deadline = performance.now() + RESTART_GRACE_MS;
  while (!gone() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return gone();
}

/** Reads an SSE body (text/event-stream, HTML Living Standard §9.2.6) and hands on each whole event. */
async function pipeEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onEvent: (event: string) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", cancel, { once: true });
  let buffered = "";
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true }).replaceAll("\r\n", "\n");
      let end;
      while ((end = buffered.indexOf("\n\n")) >= 0) {
        onEvent(buffered.slice(0, end + 2));
        buffered = buffered.slice(end + 2);
      }
    }
  } catch {
    // The child ended (or the client left): what it sent whole was handed on.
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}
