/**
 * An API of the client whose module loads with the first call of one of its methods (`client.skills`,
 * `client.events`): a one-call client carries only the names of their methods. A method that answers an async
 * iterator (`client.events.stream()`) answers one at once, whose first `next()` waits for the module.
 *
 * @module
 */

type Loaded = Record<string, (...args: unknown[]) => unknown>;

/**
 * Makes the API: each method loads `loaded-on-demand.ts` (once), makes the API from it, and calls its own.
 *
 * @param make Makes the API from the loaded module.
 * @param names Its methods that answer a promise.
 * @param iterators Its methods that answer an async iterator.
 * @returns The API.
 */
export function onFirstUse<A>(
  make: (m: typeof import("./loaded-on-demand.ts")) => object,
  names: string[],
  iterators: string[] = [],
): A {
  let api: Promise<Loaded> | undefined;
  const load = () => api ??= import("./loaded-on-demand.ts").then(make as never);
  return Object.fromEntries([
    ...names.map((name) => [name, async (...args: unknown[]) => await (await load())[name](...args)]),
    ...iterators.map((name) => [name, (...args: unknown[]) => later(load().then((loaded) => loaded[name](...args)))]),
  ]) as A;
}

/** An async iterator that is the one `made` resolves to, once it has (a `return()` before then ends it unstarted). */
function later<T>(made: Promise<unknown>): AsyncIterableIterator<T> {
  const inner = made as Promise<AsyncIterableIterator<T>>;
  return {
    async next() {
      return await (await inner).next();
    },
    async return(value?: unknown) {
      return await (await inner).return?.(value) ?? { done: true, value: value as never };
    },
    async throw(error?: unknown) {
      const iterator = await inner;
      if (iterator.throw === undefined) throw error;
      return await iterator.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
