/**
 * `signals()`: the capability that lets declared work wait for the outside world (`work.waitFor()`), signalled by
 * `server.signal()` or a POST to a signed, expiring URL (`work.signalUrl()`) that the server serves under its
 * `basePath` at `/signals/<token>`. A capability, not a default: a server without it bundles none of it.
 *
 * @module
 */
import { isTokenError } from "../codec/token-error.ts";
import type { CallMeta } from "../core/call/call-meta.ts";
import type { Runtime } from "../core/instance/runtime.ts";
import { registryOf } from "../core/definitions/registry.ts";
import { ProtocolError } from "../errors/error.ts";
import { pathOf } from "../internal/url.ts";
import { continuationsOf } from "../jobs/continuations.ts";
import { checkPayload, JobSignals, SIGNAL_KIND, type SignalDelivery, waitShape } from "../jobs/signals.ts";
import type { JournalStore } from "../jobs/journal-store.ts";
import type { WaitSchema } from "../core/long-running/work-context.ts";
import type { MountedBinding, ServerCore } from "../server/binding-contract.ts";
import { readBody } from "../server/read-body.ts";
import { type Capability, capability } from "../server/server-capability.ts";
import type { SignalsSupport } from "../server/server-options.ts";

/**
 * Options of {@link signals}.
 *
 * @example
 * ```ts
 * import type { SignalsOptions } from "@mcplite/sdk";
 * import * as v from "valibot";
 * const options: SignalsOptions = {
 *   publicUrl: "https://api.example.com",
 *   maxBodyBytes: 16_384,
 *   schemas: { approved: v.object({ by: v.string() }) },
 * };
 * ```
 */
export interface SignalsOptions {
  /**
   * The server's origin as outside systems reach it (`https://api.example.com`), which `work.signalUrl()` puts before
   * the server's `basePath`. Set it wherever the server is reached other than on a loopback host: a signal URL is a
   * capability, and a request's `Host` is the caller's to write, so without `publicUrl` the URL takes the `Host` of
   * the request that started the job only when that is a loopback host (`http://127.0.0.1:8000`, development), and
   * `work.signalUrl()` otherwise throws a `TypeError` saying to set it; so does a job started in process
   * (`server.call()`), which has no request.
   */
  readonly publicUrl?: string;
  /** The largest payload a signal URL takes, in bytes (default 65 536); a larger one is answered 413. */
  readonly maxBodyBytes?: number;
  /**
   * The payload of each signal, by name, where the server knows it: a POST to a signal URL whose payload its schema
   * refuses is answered 400 (the signal not taken), `server.signal()` throws a `TypeError`, and it is the schema of a
   * `work.waitFor(name)` given none. Without one, the wait's `schema` checks the payload as the wait takes it.
   */
  readonly schemas?: Readonly<Record<string, WaitSchema>>;
}

/** The default bound on a signal's body, in bytes. */
const MAX_SIGNAL_BYTES = 64 * 1024;
/** How long a signal's body may take to arrive, in ms. */
const SIGNAL_BODY_MS = 30_000;

/**
 * Signals for declared work: `createServer({ signals: signals() })` lets `.defer()` work wait for the outside world
 * with `work.waitFor(name, { timeoutMs, schema })`, answered by `server.signal(jobId, name, payload)` on any instance
 * sharing the store (and queue), or by a POST to `work.signalUrl(name)`. Give it to every instance and worker of the
 * server (the same server module): a worker's work makes the URLs, a web instance serves them.
 *
 * @param options The public URL of the server, the bound on a payload.
 * @returns The capability.
 *
 * @example A job that waits for an approval, signalled in process
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool, signals } from "../../mod.ts";
 *
 * const publish = defineTool("publish")
 *   .input(v.object({ post: v.string() }))
 *   .longRunning({ ttlMs: 60_000 })
 *   .defer(async ({ post }, work) => {
 *     const { by } = await work.waitFor("approved", { timeoutMs: 30_000, schema: v.object({ by: v.string() }) });
 *     return `${post} published, approved by ${by}`;
 *   });
 * const server = createServer({ name: "blog", version: "1.0.0", signals: signals() }).tool(publish);
 * const called = await server.call("publish", { post: "hello" });
 * assert.equal(called.kind, "promise");
 * const job = called.kind === "promise" ? called.entry! : "";
 * assert.equal(await server.signal(job, "approved", { by: "ada" }), "taken");
 * assert.equal(await server.signal(job, "approved", { by: "bob" }), "signalled"); // once
 * ```
 */
export function signals(options: SignalsOptions = {}): Capability<"signals"> {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_SIGNAL_BYTES;
  if (!(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw new RangeError("maxBodyBytes is a positive integer");
  }
  const publicUrl = options.publicUrl?.replace(/\/+$/, "");
  const schemas = options.schemas ?? {};
  if (publicUrl !== undefined && !URL.canParse(publicUrl)) throw new TypeError(`publicUrl is no URL: ${publicUrl}`);
  const mount = (core: ServerCore): MountedBinding => {
    const runtime = registryOf(core).runtime;
    const c = runtime.continuations === undefined ? undefined : continuationsOf(runtime);
    if (c === undefined) throw new TypeError("signals() needs long-running support (createServer({ longRunning }))");
    const path = `${core.options.basePath}/signals/`;
    const url = (meta: CallMeta) => `${publicUrl ?? originOf(meta)}${path}`;
    const jobs = new JobSignals(c, url, (error) => runtime.onError?.(error), schemas);
    c.useSignals(jobs);
    const refused = (job: string, name: string, payload: unknown) => payloadIssues(c.journals, job, name, payload);
    const handle = async (request: Request): Promise<Response> => {
      if (request.method !== "POST") return answer(405, "POST the signal's payload to its URL", { allow: "POST" });
      let claims;
      try {
        claims = await c.codec.verify(pathOf(request.url).slice(path.length), { kind: SIGNAL_KIND });
      } catch (error) {
        if (!isTokenError(error)) throw error;
        // Expired: it was one of ours (410). Anything else (tampered, forged, of another kind): refused (403).
        return error.reason === "expired" ? answer(410, "This signal URL expired") : answer(403, "No signal URL");
      }
      let payload: unknown;
      try {
        const text = await readBody(request, { maxBodyBytes, bodyTimeoutMs: SIGNAL_BODY_MS });
        payload = text.trim() === "" ? undefined : JSON.parse(text);
      } catch (error) {
        if (error instanceof ProtocolError && error.code === "payload_too_large") {
          return answer(413, `A signal's payload is at most ${maxBodyBytes} bytes`);
        }
        return answer(400, "A signal's payload is JSON");
      }
      const job = (claims.state as { d: string }).d;
      let taken: SignalDelivery;
      try {
        const issues = await refused(job, claims.scope, payload);
        if (issues !== undefined) return answer(400, `The signal's payload is refused: ${issues}`);
        const ttlMs = Math.max(1, claims.expiresAt - c.codec.now());
        taken = await jobs.send(job, claims.scope, payload, ttlMs);
      } catch (error) {
        if (!(error instanceof ProtocolError && error.code === "unavailable")) throw error;
        return answer(503, "The server's store is out of reach: send it again later", { "retry-after": "1" });
      }
      return taken === "taken"
        ? answer(202, "Signalled")
        : taken === "signalled"
        ? answer(409, "This job was signalled so already")
        : answer(410, "This job no longer waits for the signal");
    };
    return {
      routes: new Map([["/signals/*", {
        handle,
        refuse: (error) => answer(error.code === "unauthenticated" ? 401 : 403, error.message),
        methods: "POST",
        capability: true, // the token in its URL is the credential: the server's `auth` asks for none
      }]]),
    };
  };
  const send = async (runtime: Runtime, job: string, name: string, payload: unknown) => {
    const c = runtime.continuations === undefined ? undefined : continuationsOf(runtime).signals;
    if (c === undefined) throw new TypeError("server.signal() needs createServer({ signals: signals() })");
    const issues = await payloadIssues(continuationsOf(runtime).journals, job, name, payload);
    if (issues !== undefined) throw new TypeError(`server.signal(): the payload of "${name}" is refused: ${issues}`);
    return await c.send(job, name, payload);
  };
  /**
   * Why a payload is refused before it is taken, or `undefined`: checked by the server's schema of the signal, else by
   * the JSON Schema the job's wait recorded of its own (the instance answering may not run the work, so it reads it in
   * the journal); a signal that comes before its wait began is taken, and its wait checks it.
   */
  const payloadIssues = async (journals: JournalStore, job: string, name: string, payload: unknown) => {
    const schema = schemas[name] ?? await recordedSchema(journals, job, name);
    const checked = await checkPayload(schema, payload);
    return "issues" in checked ? checked.issues : undefined;
  };
  return capability("signals", Object.assign(mount, { send }) satisfies SignalsSupport);
}

/**
 * The schema of the payload a job's wait recorded (its JSON Schema, checked in full by `@cfworker/json-schema`,
 * loaded only when a wait recorded one), or `undefined`.
 */
async function recordedSchema(journals: JournalStore, job: string, name: string): Promise<WaitSchema | undefined> {
  const shape = await waitShape(journals, job, name);
  if (shape === undefined) return undefined;
  const { jsonSchemaInput } = await import("../tool/openapi/json-schema-input.ts");
  return jsonSchemaInput(shape);
}

/** A short JSON answer of the signal route. */
function answer(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ status, message }, { status, headers });
}

/** A loopback `Host`: a development server's, the only origin a request may give a capability URL. */
const LOOPBACK_HOST = /^(localhost|127\.[\d.]+|\[::1\])(:\d+)?$/i;

/**
 * The origin of a job's signal URLs without `signals({ publicUrl })`: the `Host` of the request that started it, when
 * that is a loopback host (`http:`). Any other `Host` is the caller's to write (`Host: evil.example` would send the
 * capability, mailed to an approver, to the caller's host), so no URL is made from it: the error says what to set.
 */
function originOf(meta: CallMeta): string {
  const host = meta.headers.get("host");
  if (host !== null && LOOPBACK_HOST.test(host)) return `http://${host}`;
  throw new TypeError(
    host === null
      ? "work.signalUrl(): this job came from no request: give signals({ publicUrl })"
      : `work.signalUrl(): a signal URL is a capability, its origin comes from signals({ publicUrl }); without it ` +
        `only a loopback Host (development) is used, and this job's request came with Host ${
          JSON.stringify(host.slice(0, 100))
        }: give signals({ publicUrl: "https://<the server's public origin>" })`,
  );
}
