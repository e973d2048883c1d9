/**
 * JSON-RPC 2.0 over `postMessage`, the view's half (SEP-1865, Transport Layer): requests to the host
 * with their answers matched by id, notifications both ways, and the host's requests answered. Only
 * messages from the parent window are read.
 *
 * @module
 */
import type { PostTarget, ViewGlobals, ViewMessageEvent } from "./browser.ts";

/** A JSON-RPC error from the host. */
export class HostError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The error's `data`, if any. */
  readonly data: unknown;

  /**
   * Creates the error.
   *
   * @param code The code.
   * @param message The message.
   * @param data The data.
   */
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "HostError";
    this.code = code;
    this.data = data;
  }
}

type Params = Record<string, unknown>;
/** Answers a request from the host. */
export type RequestHandler = (params: Params) => unknown;
/** Receives a notification from the host. */
export type NotificationHandler = (params: Params) => void;

/** The view's JSON-RPC endpoint. */
export interface Rpc {
  /** Sends a request; resolves with its result, rejects with a {@link HostError}. */
  request(method: string, params: Params, timeoutMs?: number): Promise<Params>;
  /** Sends a notification. */
  notify(method: string, params?: Params): void;
  /** Stops listening; pending requests reject. */
  close(): void;
}

/**
 * Opens the endpoint on the window's parent.
 *
 * @param globals The view's globals.
 * @param onRequest Answers the host's requests (an unknown method gets -32601).
 * @param onNotification Receives the host's notifications.
 * @returns The endpoint.
 */
export function openRpc(
  globals: ViewGlobals,
  onRequest: (method: string) => RequestHandler | undefined,
  onNotification: (method: string, params: Params) => void,
): Rpc {
  const host: PostTarget = globals.parent;
  const pending = new Map<number, { resolve(result: Params): void; reject(error: Error): void }>();
  let nextId = 1;
  const post = (message: Params) => host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const listener = (event: ViewMessageEvent): void => {
    if (event.source !== host) return; // only the host speaks to the view
    const message = event.data as {
      id?: number | string;
      method?: string;
      params?: Params;
      result?: Params;
      error?: { code: number; message: string; data?: unknown };
    } | null;
    if (message === null || typeof message !== "object") return;
    if (typeof message.method === "string") {
      const params = message.params ?? {};
      if (message.id === undefined) return onNotification(message.method, params);
      const id = message.id;
      const handler = onRequest(message.method);
      if (handler === undefined) {
        return post({ id, error: { code: -32601, message: `Method not found: ${message.method}` } });
      }
      Promise.resolve().then(() => handler(params)).then(
        (result) => post({ id, result: result ?? {} }),
        (error: unknown) => post({ id, error: { code: -32603, message: String((error as Error)?.message ?? error) } }),
      );
      return;
    }
    const waiter = typeof message.id === "number" ? pending.get(message.id) : undefined;
    if (waiter === undefined) return;
    pending.delete(message.id as number);
    if (message.error) waiter.reject(new HostError(message.error.code, message.error.message, message.error.data));
    else waiter.resolve(message.result ?? {});
  };
  globals.addEventListener("message", listener);
  return {
    request(method, params, timeoutMs) {
      const id = nextId++;
      return new Promise<Params>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => {
            pending.delete(id);
            reject(new HostError(-32001, `${method}: no answer from the host in ${timeoutMs} ms`));
          }, timeoutMs);
        }
        const settle = <T>(done: (value: T) => void) => (value: T) => {
          clearTimeout(timer);
          done(value);
        };
        pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
        post({ id, method, params });
      });
    },
    notify: (method, params = {}) => post({ method, params }),
    close() {
      globals.removeEventListener("message", listener);
      for (const waiter of pending.values()) waiter.reject(new HostError(-32000, "the view closed"));
      pending.clear();
    },
  };
}
