/**
 * The shared store's conformance cases (`@mcplite/sdk/testing`, `sharedStoreCases()`) as one `node:test` suite, run
 * against each implementation.
 */
import { after, describe, it } from "node:test";
import type { SharedStore } from "../../src/store/shared-store.ts";
import { sharedStoreCases } from "../../src/testing/mod.ts";

/**
 * Describes the conformance suite of a shared store.
 *
 * @param name The store's name, for the report.
 * @param open Opens the store (once, when the first case runs).
 * @param options `maxBytes`: the store's bound on one record; `skip`: a reason to skip (a missing engine);
 *   `close`: runs after the last case.
 */
export function describeSharedStore(
  name: string,
  open: () => SharedStore | Promise<SharedStore>,
  options: { maxBytes: number; skip?: string | false; close?: () => Promise<void> },
): void {
  describe(`SharedStore conformance: ${name}`, { skip: options.skip }, () => {
    after(async () => {
      await options.close?.();
    });
    for (const { name, run } of sharedStoreCases(open, { maxBytes: options.maxBytes })) it(name, run);
  });
}
