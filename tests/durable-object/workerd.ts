/**
 * tests/durable-object/worker.ts on real workerd (through Miniflare), bundled as a Worker is deployed, with its
 * Durable Object namespace bound and, when asked, persisted in a folder, so that a test can stop workerd and
 * start it again on the same storage.
 */
import { Miniflare } from "miniflare";
import { env } from "../../src/runtime/env.ts";
import { ROOT, run } from "../helpers/process.ts";
import type { ResultStore, StoredResult } from "../../src/core/result-store.ts";

/** The Worker's secret (its `MCPLITE_SECRET`). */
export const SECRET = "the Durable Object Worker's own secret (32+ bytes)";

/** A running Worker. */
export interface DurableObjectWorker {
  /** Its origin. */
  readonly base: string;
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
  const mf = new Miniflare({
    modules: true,
    script: await bundle,
    compatibilityDate: "2026-04-01",
    bindings: { MCPLITE_SECRET: SECRET },
    durableObjects: { MCPLITE_RESULTS: { className: "ResultObject", useSQLite: true } },
    ...(persist === undefined ? {} : { durableObjectsPersist: persist }),
  });
  const url = await mf.ready;
  return { base: url.origin, stop: () => mf.dispose() };
}

/**
 * The Worker's store, driven from the test: each operation runs in the Worker (`/store`), on its Durable Objects.
 *
 * @param base The Worker's origin.
 */
export function workerStore(base: () => string): ResultStore {
  const operation = async (body: Record<string, unknown>) => {
    const answer = await (await fetch(`${base()}/store`, { method: "POST", body: JSON.stringify(body) })).json();
    if (answer.error !== undefined) {
      throw answer.error.name === "RangeError" ? new RangeError(answer.error.message) : new Error(answer.error.message);
    }
    return answer;
  };
  return {
    get: async (id) => ((await operation({ op: "get", id })).value ?? undefined) as StoredResult | undefined,
    set: async (id, entry, ttlMs) => (await operation({ op: "set", id, entry, ttlMs })).written,
    delete: async (id) => void await operation({ op: "delete", id }),
  };
}
