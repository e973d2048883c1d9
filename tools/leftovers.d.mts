/** The `mcplite-*` entries of `dir`, sorted (tools/leftovers.mjs). */
export function leftovers(dir: string): string[];
