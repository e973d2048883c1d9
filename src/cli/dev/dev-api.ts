/**
 * The dev page's side on the dev server, under `/_dev`: the page, the server's state and what it
 * serves (`/_dev/state`), a server-sent event on each restart (`/_dev/events`, WHATWG HTML §9.2), and
 * calls (`/_dev/call`) answered as NDJSON lines: progress, partials and logs as they come, the
 * questions the tool asks (answered by the page at `/_dev/answer`), then the result or the error. Calls go through the SDK's client to the running child; only requests from a
 * loopback peer to a loopback host are answered (`--host` can open them to the network), and only calls
 * that carry the page's secret.
 *
 * @module
 */
import type { Client } from "../../client/client.ts";
import type { ElicitAnswer } from "../../client/input.ts";
import { parseArgs } from "../args.ts";
import { errorLine } from "../exit-errors.ts";
import { inspect } from "../inspect.ts";
import { connect } from "../target.ts";
import { isLoopbackAddress } from "../../internal/loopback.ts";
import type { DevEndpoint } from "./dev-endpoints.ts";
import { devPage } from "./dev-page.ts";
import type { DevState } from "./dev-supervisor.ts";

/** The dev page's path. */
export const DEV_PAGE_PATH = "/_dev";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** A comment line that keeps the event stream open through idle proxies (WHATWG HTML §9.2.6). */
const KEEPALIVE_MS = 15_000;

/** What the page's side reads from the dev server. */
export interface DevApiSource {
  /** The child's state. */
  readonly state: () => DevState;
  /** The endpoints of the running child (the last known while none runs). */
  readonly endpoints: () => readonly DevEndpoint[];
  /** Whether the next restart finds a child with the SDK loaded. */
  readonly warm: () => boolean;
  /** Peers off this machine may use the page: `--host` named an interface other than loopback. */
  readonly open?: boolean;
}

/** The page's side: its handler, and what the dev server tells it. */
export interface DevApi {
  /**
   * Answers a request under `/_dev`.
   *
   * @param request The request.
   * @param url Its URL.
   * @param peer The address it came from, as the listener saw it (`peerOf`); undefined when none said.
   */
  handle(request: Request, url: URL, peer: string | undefined): Promise<Response>;
  /** Tells the open pages the state changed (and drops the client of the child that ended). */
  changed(): void;
  /** Closes the client and the event streams. */
  close(): Promise<void>;
}

/**
 * Makes the page's side.
 *
 * @param source The dev server's state.
 * @returns The handler and its notifier.
 */
export function devApi(source: DevApiSource): DevApi {
  const token = crypto.randomUUID();
  const page = devPage(token);
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const encoder = new TextEncoder();
  let client: { generation: number; client: Client } | undefined;

  const clientFor = async (state: DevState & { phase: "ready" }): Promise<Client> => {
    if (client?.generation !== state.generation) {
      void client?.client.close().catch(() => {});
      const target = parseArgs(["inspect", `${state.url}${state.basePath}`]);
      // Forms and pages both: each call's own `onElicit` asks the page that made it (`call()`); this one
      // answers any other (there is none: the page's calls are the only ones this client makes).
      client = {
        generation: state.generation,
        client: await connect(target, {
          onWarning: () => {},
          elicitationModes: ["form", "url"],
          onElicit: () => ({ action: "decline" }),
        }),
      };
    }
    return client.client;
  };
  const summary = () => {
    const state = source.state();
    return {
      phase: state.phase,
      generation: state.generation,
      ...(state.phase === "failed" ? { failure: state.failure } : {}),
      ...(state.phase === "ready" ? { startMs: state.startMs } : {}),
      endpoints: source.endpoints(),
      warm: source.warm(),
    };
  };
  const broadcast = () => {
    const bytes = encoder.encode(`event: state\ndata: ${JSON.stringify(summary())}\n\n`);
    for (const stream of streams) {
      try {
        stream.enqueue(bytes);
      } catch {
        streams.delete(stream);
      }
    }
  };

  const events = () => {
    let self: ReadableStreamDefaultController<Uint8Array>;
    let timer: ReturnType<typeof setInterval>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        self = controller;
        streams.add(controller);
        controller.enqueue(encoder.encode(`retry: 500\nevent: state\ndata: ${JSON.stringify(summary())}\n\n`));
        timer = setInterval(() => {
          try {
            controller.enqueue(encoder.encode(": keep-alive\n\n"));
          } catch { // closed by close(): the page went away with the dev server
            clearInterval(timer);
          }
        }, KEEPALIVE_MS);
      },
      cancel() {
        clearInterval(timer);
        streams.delete(self);
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-store" } });
  };

  const state = async () => {
    const current = source.state();
    if (current.phase !== "ready") return Response.json({ ...summary(), tools: [], prompts: [], resources: [] });
    try {
      const report = await inspect(await clientFor(current), AbortSignal.timeout(10_000));
      return Response.json({ ...summary(), ...report });
    } catch (error) {
      return Response.json({ ...summary(), error: errorLine(error), tools: [], prompts: [], resources: [] });
    }
  };

  /** The questions calls asked the page and wait on (`/_dev/answer`), by id. */
  const questions = new Map<string, (answer: ElicitAnswer) => void>();
  const answer = async (request: Request) => {
    const body = await request.json().catch(() => undefined) as { id?: unknown; answer?: ElicitAnswer } | undefined;
    const settle = typeof body?.id === "string" ? questions.get(body.id) : undefined;
    const action = body?.answer?.action;
    if (settle === undefined || !["accept", "decline", "cancel"].includes(String(action))) {
      return Response.json({ error: "no such question, or no action" }, { status: 400 });
    }
    settle(body!.answer!);
    return new Response(null, { status: 204 });
  };

  const call = async (request: Request) => {
    const current = source.state();
    if (current.phase !== "ready") return Response.json({ error: "the server is not running" }, { status: 503 });
    const body = await request.json() as { kind?: string; name?: string; uri?: string; arguments?: unknown };
    const target = await clientFor(current);
    const lines = new TransformStream<string, Uint8Array>({
      transform: (line, controller) => controller.enqueue(encoder.encode(JSON.stringify(line) + "\n")),
    });
    const writer = lines.writable.getWriter();
    const send = (event: Record<string, unknown>) => void writer.write(event as unknown as string).catch(() => {});
    const signal = request.signal;
    void (async () => {
      try {
        const args = (body.arguments ?? {}) as Record<string, unknown>;
        const result = body.kind === "prompt"
          ? await target.getPrompt(String(body.name), args as Record<string, string>, { signal })
          : body.kind === "resource"
          ? await target.readResource(String(body.uri), { signal })
          : await target.callTool(String(body.name), args, {
            signal,
            // A question the tool asks (MCP elicitation, form or URL mode) goes to the page that called it,
            // which shows it and posts the answer to /_dev/answer; the page going away cancels it.
            onElicit: (question) =>
              new Promise<ElicitAnswer>((resolve) => {
                const id = crypto.randomUUID();
                const done = (answer: ElicitAnswer) => {
                  questions.delete(id);
                  signal.removeEventListener("abort", cancel);
                  resolve(answer);
                };
                const cancel = () => done({ action: "cancel" });
                questions.set(id, done);
                signal.addEventListener("abort", cancel, { once: true });
                send({ type: "elicit", id, request: question });
              }),
            onProgress: (progress) => send({ type: "progress", ...progress }),
            onPartial: (partial) => send({ type: "partial", partial }),
            onLog: (entry) => send({ type: "log", ...entry }),
          });
        send({ type: "result", result });
      } catch (error) {
        send({ type: "error", message: errorLine(error) });
      } finally {
        await writer.close().catch(() => {});
      }
    })();
    return new Response(lines.readable, {
      headers: { "content-type": "application/x-ndjson", "cache-control": "no-store" },
    });
  };

  return {
    async handle(request, url, peer) {
      if (!mayUsePage(url.hostname, peer, source.open === true)) return new Response("not found", { status: 404 });
      const path = url.pathname.slice(DEV_PAGE_PATH.length);
      if (request.method === "GET" && (path === "" || path === "/")) {
        return new Response(page, {
          headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
        });
      }
      if (request.method === "GET" && path === "/events") return events();
      // What the server lists, as its own endpoints list it to anyone; only calls need the page's secret.
      if (request.method === "GET" && path === "/state") return await state();
      if (request.headers.get("x-dev-token") !== token) return new Response("forbidden", { status: 403 });
      if (request.method === "POST" && path === "/call") return await call(request);
      if (request.method === "POST" && path === "/answer") return await answer(request);
      return new Response("not found", { status: 404 });
    },
    changed() {
      broadcast();
    },
    async close() {
      for (const stream of streams) {
        try {
          stream.close();
        } catch { /* already closed */ }
      }
      streams.clear();
      await client?.client.close().catch(() => {});
    },
  };
}

/**
 * Whether a request may use the page (which holds the secret that runs tools). Its peer: a loopback
 * address, as the socket reports it (a `Host` header is the sender's to choose), unless the dev server
 * is open to the network. Its host, against DNS rebinding: a loopback name, or, when open, an IP
 * literal (rebinding needs a host name that the attacker's DNS answers; an address is looked up nowhere).
 *
 * @param hostname The request URL's host name (`Host`).
 * @param peer The peer's address; undefined when the listener did not say.
 * @param open Peers off this machine are allowed.
 * @returns `true` when it may.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mayUsePage } from "./dev-api.ts";
 * assert.equal(mayUsePage("127.0.0.1", "127.0.0.1", false), true);
 * assert.equal(mayUsePage("127.0.0.1", "203.0.113.7", false), false); // a peer sending Host: 127.0.0.1
 * assert.equal(mayUsePage("198.51.100.2", "203.0.113.7", true), true); // mcplite dev --host 0.0.0.0
 * assert.equal(mayUsePage("rebound.example", "127.0.0.1", true), false);
 * ```
 */
export function mayUsePage(hostname: string, peer: string | undefined, open: boolean): boolean {
  if (!open && (peer === undefined || !isLoopbackAddress(peer))) return false;
  return LOOPBACK.has(hostname) || open && (/^\d+\.\d+\.\d+\.\d+$/.test(hostname) || hostname.startsWith("["));
}
