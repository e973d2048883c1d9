/** The `mcplite-*` entries of `dir`, sorted (tools/leftovers.mjs). */
export function tempEntries(dir: string): string[];
/** The `mcplite-*` entries of `dir` not in `before` (its entries when the run began) nor in `own` (the run's own). */
export function leftovers(dir: string, before: readonly string[], own?: readonly string[]): string[];
