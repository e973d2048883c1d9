/** The failures in a `bun test`, `deno test` or `deno check` output, as lines to print (tools/failure-digest.mjs). */
export function failureDigest(text: string): string[];
