/**
 * An API of the client whose module loads with the first call of one of its methods (`client.skills`,
 * `client.events`): a one-call client carries only the names of their methods.
 *
 * @module
 */

/**
 * Makes the API: each method loads `loaded-on-demand.ts` (once), makes the API from it, and calls its own.
 *
 * @param make Makes the API from the loaded module.
 * @param names Its methods.
 * @returns The API.
 */
export function onFirstUse<A>(make: (m: typeof import("./loaded-on-demand.ts")) => object, names: string[]): A {
  let api: Promise<Record<string, (...args: unknown[]) => unknown>> | undefined;
  const load = () => api ??= import("./loaded-on-demand.ts").then(make as never);
  return Object.fromEntries(
    names.map((name) => [name, async (...args: unknown[]) => await (await load())[name](...args)]),
  ) as A;
}
