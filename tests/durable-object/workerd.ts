/**
 * tests/durable-object/worker.ts on real workerd (through Miniflare), bundled as a Worker is deployed, with its
 * Durable Object namespace bound and, when asked, persisted in a folder, so that a test can stop workerd and
 * start it again on the same storage. The same script runs a second time as another Worker, whose isolates share
 * no memory with the first's, bound to the first one's Durable Objects (as isolates of one deployed Worker are).
 */
import { Miniflare } from "miniflare";
import { env } from "../../src/runtime/env.ts";
import { ROOT, run } from "../helpers/process.ts";
import type { ResultStore, StoredResult } from "../../src/jobs/result-store.ts";
import type { SharedStore } from "../../src/store/shared-store.ts";

/** The Worker's secret (its `MCPLITE_SECRET`). */
export const SECRET = "the Durable Object Worker's own secret (32+ bytes)";

/** A running Worker. */
export interface DurableObjectWorker {
  /** Its origin. */
  readonly base: string;
  /**
   * Sends a request to the second Worker (the same server, on isolates of its own, the same Durable Objects).
   *
   * @param path Its path.
   * @param init The request.
   */
  other(path: string, init?: RequestInit): Promise<Response>;
  /** Stops workerd (its persisted storage stays). */
  stop(): Promise<void>;
}

let bundle: Promise<string> | undefined;

/** Why the tests cannot run workerd here, or `false`. */
export async function workerdMissing(): Promise<string | false> {
  const workerd = env("MINIFLARE_WORKERD_PATH") ?? `${ROOT}node_modules/.bin/workerd`;
  const version = await run(workerd, ["--version"], 10_000);
  return version.code === 0 ? false : `workerd (${workerd}) does not run here: ${version.stderr.trim() || "not found"}`;
}

/** Bundles the Worker (once) and starts it; `persist`: the folder its Durable Objects' storage lives in. */
export async function startWorker(persist?: string): Promise<DurableObjectWorker> {
  bundle ??= run(`${ROOT}node_modules/.bin/bun`, [
    "build",
    "--target=browser",
    "--format=esm",
    "--external=node:*",
    "tests/durable-object/worker.ts",
  ]).then((bundled) => {
    if (bundled.code !== 0) throw new Error(`bun could not bundle the Worker: ${bundled.stderr}`);
    return bundled.stdout;
  });
  const worker = { modules: true, script: await bundle, compatibilityDate: "2026-04-01" } as const;
  const mf = new Miniflare({
    workers: [
      {
        ...worker,
        name: "first",
        bindings: { MCPLITE_SECRET: SECRET },
        durableObjects: { MCPLITE_RESULTS: { className: "ResultObject", useSQLite: true } },
      },
      {
        ...worker,
        name: "second",
        bindings: { MCPLITE_SECRET: SECRET },
        durableObjects: { MCPLITE_RESULTS: { className: "ResultObject", scriptName: "first", useSQLite: true } },
      },
    ],
    ...(persist === undefined ? {} : { durableObjectsPersist: persist }),
  });
  const url = await mf.ready;
  // Miniflare's Fetcher, typed with its own (undici) Request and Response.
  const second = await mf.getWorker("second") as unknown as { fetch(url: URL, init?: RequestInit): Promise<Response> };
  return {
    base: url.origin,
    other: (path, init) => second.fetch(new URL(path, url), init),
    stop: () => mf.dispose(),
  };
}

/**
 * The Worker's store, driven from the test: each operation runs in the Worker (`/store`), on its Durable Objects.
 *
 * @param base The Worker's origin.
 */
export function workerStore(base: () => string): ResultStore {
  // A connection of its own per operation (`keepalive: false`, which Bun's fetch honours): a kept connection workerd
  // closed as a request went out is reset unanswered (seen in CI under load, twice in a row on Bun's pooled sockets).
  const post = (body: Record<string, unknown>) =>
    fetch(`${base()}/store`, { method: "POST", body: JSON.stringify(body), keepalive: false });
  const operation = async (body: Record<string, unknown>) => {
    // A reset all the same is sent again, twice at most, as HTTP clients send again a request a lost connection
    // left unanswered (RFC 9112 §9.3.1). Only the harness's.
    const again = (tries: number) => (error: { code?: string }): Promise<Response> =>
      tries > 0 && error?.code === "ECONNRESET" ? post(body).catch(again(tries - 1)) : Promise.reject(error);
    const sent = await post(body).catch(again(2));
    const answer = await sent.json();
    if (answer.error !== undefined) {
      throw answer.error.name === "RangeError" ? new RangeError(answer.error.message) : new Error(answer.error.message);
    }
    return answer;
  };
  return {
    get: async (id) => ((await operation({ op: "get", id })).value ?? undefined) as StoredResult | undefined,
    set: async (id, entry, ttlMs) => (await operation({ op: "set", id, entry, ttlMs })).written,
    delete: async (id) => void await operation({ op: "delete", id }),
    addMember: async (key, member, ttlMs) => void await operation({ op: "add", id: key, member, ttlMs }),
    removeMember: async (key, member) => void await operation({ op: "remove", id: key, member }),
    members: async (key) => (await operation({ op: "members", id: key })).members,
  };
}

/**
 * The shared store of the Worker's result store (`store`), driven from the test as {@link workerStore} drives the
 * result store: each operation runs in the Worker, on its Durable Objects.
 *
 * @param base The Worker's base URL, read at each operation.
 * @returns The store.
 */
export function workerRecords(base: () => string): SharedStore {
  const operation = async (body: Record<string, unknown>) => {
    const sent = await fetch(`${base()}/store`, { method: "POST", body: JSON.stringify(body), keepalive: false });
    const answer = await sent.json();
    if (answer.error !== undefined) {
      throw answer.error.name === "RangeError" ? new RangeError(answer.error.message) : new Error(answer.error.message);
    }
    return answer;
  };
  const sets = workerStore(base);
  return {
    get: async (id) => {
      const { value, found } = await operation({ op: "record.get", id });
      return found ? value : undefined;
    },
    put: async (id, value, ttlMs, options) =>
      (await operation({ op: "record.put", id, value, ttlMs, final: options?.final === true })).written,
    putIfAbsent: async (id, value, ttlMs) => (await operation({ op: "record.putIfAbsent", id, value, ttlMs })).written,
    compareAndSet: async (id, expected, next, ttlMs) =>
      (await operation({ op: "record.compareAndSet", id, expected, absent: expected === undefined, next, ttlMs }))
        .written,
    delete: async (id) => void await operation({ op: "record.delete", id }),
    addMember: (key, member, ttlMs) => sets.addMember!(key, member, ttlMs),
    removeMember: (key, member) => sets.removeMember!(key, member),
    members: (key) => sets.members!(key),
  };
}
