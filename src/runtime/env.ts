/**
 * Reading the environment on Deno, Bun and Node without failing where access is denied.
 *
 * @module
 */

/**
 * Reads an environment variable on Deno, Bun or Node, without failing where access is denied.
 *
 * @param name The variable.
 * @returns Its value, or `undefined`.
 */
export function env(name: string): string | undefined {
  const g = globalThis as {
    Deno?: { env: { get(name: string): string | undefined } };
    process?: { env: Record<string, string | undefined> };
  };
  try {
    return g.Deno ? g.Deno.env.get(name) : g.process?.env[name];
  } catch {
    return undefined;
  }
}
