/**
 * The journal store conformance cases (`@mcplite/sdk/testing`, `journalStoreCases()`) as one `node:test` suite, run against
 * each implementation (a result store's entries, with and without sets; Redis on both clients; PostgreSQL).
 */
import { after, describe, it } from "node:test";
import type { JournalStore } from "../../src/jobs/journal-store.ts";
import { journalStoreCases } from "../../src/testing/mod.ts";

/**
 * Describes the conformance suite of a journal store.
 *
 * @param name The store's name, for the report.
 * @param open Opens the store (once, when the first case runs).
 * @param options `skip`: a reason to skip (a missing engine); `close`: runs after the last case.
 */
export function describeJournalStore(
  name: string,
  open: () => JournalStore | Promise<JournalStore>,
  options: { skip?: string | false; close?: () => Promise<void> } = {},
): void {
  describe(`JournalStore conformance: ${name}`, { skip: options.skip }, () => {
    after(async () => {
      await options.close?.();
    });
    for (const { name, run } of journalStoreCases(open)) it(name, run);
  });
}
