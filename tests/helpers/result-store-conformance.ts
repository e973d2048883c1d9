/**
 * The store conformance cases (`@mcplite/sdk/testing`, `resultStoreCases()`) as one `node:test` suite, run
 * against each implementation (memory, Redis on both clients, Deno KV, Durable Objects).
 */
import { after, describe, it } from "node:test";
import type { ResultStore } from "../../src/jobs/result-store.ts";
import { resultStoreCases } from "../../src/testing/mod.ts";

/**
 * Describes the conformance suite of a store.
 *
 * @param name The store's name, for the report.
 * @param open Opens the store (once, when the first case runs).
 * @param options `maxBytes`: the store's bound on one entry; `skip`: a reason to skip (a missing engine);
 *   `close`: runs after the last case.
 */
export function describeResultStore(
  name: string,
  open: () => ResultStore | Promise<ResultStore>,
  options: { maxBytes: number; skip?: string | false; close?: () => Promise<void> },
): void {
  describe(`ResultStore conformance: ${name}`, { skip: options.skip }, () => {
    after(async () => {
      await options.close?.();
    });
    for (const { name, run } of resultStoreCases(open, { maxBytes: options.maxBytes })) it(name, run);
  });
}
