/**
 * The remote end of a proxy: the typed client that makes the second hop, made from a URL (the wire found
 * as `createClient()` finds it), a stdio command, or a client given; a stdio server that exited is started
 * again on a later request, after a backoff (`./restart-backoff.ts`), so a proxy recovers when its remote
 * does without spawning one child per call while it crashes.
 *
 * @module
 */
import { Client, type ClientOptions } from "../client/client.ts";
import { McpliteError } from "../errors/error.ts";
import { createClient } from "../client/create-client.ts";
import { isResponseTooLarge } from "../client/response-bound.ts";
import { createStdioTransport, type StdioTransportOptions } from "../client/transports/stdio.ts";
import { type NoticeListener, noticesOf, SERVER_NOTICES } from "../client/transports/server-notices.ts";
import { CallerSessions, type Held, type ProxySessionsOptions } from "./caller-sessions.ts";
import { noticeFetch } from "./notice-fetch.ts";
import { RestartBackoff, RestartPending, type RestartPolicy } from "./restart-backoff.ts";

/** What `proxy()` proxies: a URL, a stdio command (`{ command, args }`), or a client from `createClient()`. */
// deno-lint-ignore no-explicit-any
export type ProxyTarget = string | URL | StdioTransportOptions | Client<any>;

/** Hears a notice of the remote's, and whose session sent it (a caller's key; `undefined`: the proxy's own). */
export type CallerNoticeListener = (method: string, params: Record<string, unknown>, caller?: string) => void;

/** Where a caller's client carries the caller's latest token (./caller-sessions.ts keeps the client, not the token). */
const TOKEN = /* @__PURE__ */ Symbol();

/** The caller of what a session known by its caller's token alone notifies: no caller's key, so heard by none. */
const TOKEN_ONLY = "token";

/** The client to the remote, and a way to start over after the remote went away. */
export interface Remote {
  /**
   * The client in use, with the proxy's own credentials.
   *
   * @throws {RestartPending} While a stdio remote that failed waits to be started again.
   */
  readonly client: Client;
  /**
   * A caller's own client (a URL target only): its own MCP 2025 session at the remote, kept as `sessions`
   * says (./caller-sessions.ts), sending the caller's bearer token in place of the proxy's credentials when
   * one is given; held until released (a call in flight).
   *
   * @param caller The caller's key (`callerKey()`), if it can be told apart.
   * @param token The caller's token to send, if any.
   * @returns The client held.
   */
  forCaller?(caller: string | undefined, token: string | undefined): Held;
  /**
   * Keeps a caller's own session (see {@link forCaller}) until released: a subscription made in it.
   *
   * @param caller The caller's key.
   * @returns The client held.
   */
  holdFor?(caller: string): Held;
  /**
   * Hears what the remote notifies outside any request (its `list_changed`), where the wire carries it
   * (a stdio target, an MCP 2025 session's standalone stream); absent for a client given. What a caller's own
   * session notifies comes with that caller's key.
   *
   * @param listener The listener, kept for every child started later.
   */
  listen?(listener: CallerNoticeListener): void;
  /** After a failure of the remote: drops a stdio child that exited, so the next request starts another. */
  failed(error: unknown): void;
  /** Closes the client (ends a stdio child, an MCP 2025 session). */
  close(): Promise<void>;
}

/** The client's options, and how callers' own sessions are kept (a URL target). */
export type RemoteOptions = ClientOptions & { readonly sessions?: ProxySessionsOptions };

/**
 * Connects to the remote (lazily: nothing is sent until the first request).
 *
 * @param target The URL, the stdio command or the client.
 * @param options The client's options (for a URL or a command), and how callers' sessions are kept (a URL).
 * @param restart How a stdio remote is started again (its clock, in tests).
 * @returns The remote.
 * @throws {TypeError} When the target is none of these.
 */
export function connectRemote(target: ProxyTarget, options: RemoteOptions = {}, restart?: RestartPolicy): Remote {
  if (target instanceof Client) {
    const client = target as Client;
    return { client, failed: () => {}, close: () => client.close() };
  }
  if (typeof target === "string" || target instanceof URL) {
    const { sessions: kept, ...clientOptions } = options;
    const listeners = new Set<CallerNoticeListener>();
    const heard = (caller: string | undefined): NoticeListener => (method, params) => {
      for (const listener of listeners) listener(method, params, caller);
    };
    const client = createClient(target, {
      ...clientOptions,
      fetch: noticeFetch(clientOptions.fetch, heard(undefined)),
    });
    // Keyed by the caller alone (its calls and its subscriptions share its session), else by its token; each
    // request carries the caller's latest token, or, with none, the proxy's own credentials.
    const sessions = new CallerSessions((key) => {
      const [caller] = JSON.parse(key) as [string | null];
      // A caller known by its token alone: what its session notifies is for no other caller, and the tag,
      // published to other instances with a resource update, never carries the token.
      const fetch = noticeFetch(clientOptions.fetch, heard(caller ?? TOKEN_ONLY));
      const own = clientOptions.auth === undefined ? fetch : clientOptions.auth.wrap(fetch);
      const carrier: Client & { [TOKEN]?: string } = createClient(target, {
        ...clientOptions,
        auth: undefined,
        fetch: (request) => carrier[TOKEN] === undefined ? own(request) : fetch(bearer(request, carrier[TOKEN])),
      });
      return carrier;
    }, kept);
    const key = (caller: string | undefined, token: string | undefined) =>
      JSON.stringify(caller !== undefined ? [caller] : [null, token]);
    return {
      client,
      listen: (listener) => void listeners.add(listener),
      failed: () => {},
      forCaller: (caller, token) => {
        const held = sessions.hold(key(caller, token));
        (held.client as { [TOKEN]?: string })[TOKEN] = token; // the latest: a renewed token, or none now
        return held;
      },
      holdFor: (caller) => sessions.hold(key(caller, undefined)),
      close: async () => {
        await sessions.close();
        await client.close();
      },
    };
  }
  if (typeof target === "object" && target !== null && typeof target.command === "string") {
    return stdioRemote(target, options, new RestartBackoff(restart));
  }
  throw new TypeError("proxy(target): the target must be a URL, a stdio command ({ command, args }) or a client");
}

/** A request with the caller's bearer token (RFC 6750 §2.1) in place of any `authorization`. */
function bearer(request: Request, token: string): Request {
  const headers = new Headers(request.headers);
  headers.set("authorization", `Bearer ${token}`);
  return new Request(request, { headers });
}

/**
 * A remote over stdio: a new child (and client) after the last one failed at the transport, once the
 * backoff allows; until then a call is refused with the rest of the wait.
 */
function stdioRemote(command: StdioTransportOptions, options: RemoteOptions, backoff: RestartBackoff): Remote {
  const {
    sessions: _sessions,
    transport: _wire,
    fetch: _fetch,
    headers: _headers,
    auth: _auth,
    protocolVersion,
    maxResponseBytes,
    ...rest
  } = options;
  const own: ClientOptions = rest;
  const listeners = new Set<NoticeListener>();
  const start = () => {
    const transport = createStdioTransport({ protocolVersion, maxResponseBytes, ...command });
    noticesOf(transport)?.[SERVER_NOTICES]((method, params) => {
      for (const listener of listeners) listener(method, params);
    });
    backoff.started();
    return createClient(transport, own);
  };
  let client: Client | undefined = start();
  let last = client;
  let closed = false;
  return {
    get client() {
      if (client !== undefined) return client;
      if (closed) return last; // closed: its calls fail as a closed client's, and no child is started

      const wait = backoff.wait();
      if (wait > 0) throw new RestartPending(wait);
      return client = last = start();
    },
    listen: (listener) => void listeners.add(listener),
    failed(error) {
      // Once per child: the calls in flight when it exited each fail, and count as one failure. A line past
      // `maxResponseBytes` ended the child too (a pipe cannot skip the rest of it).
      if (!(error instanceof McpliteError) || client === undefined) return;
      if (error.code !== "transport" && !isResponseTooLarge(error)) return;
      client = undefined;
      backoff.failed();
      void last.close().catch(() => {});
    },
    close: () => {
      closed = true;
      return last.close();
    },
  };
}
