/**
 * `client.tools`: a property per tool name that calls the tool. Every other property a program, a logger or a
 * test framework reads of an object answers as a plain empty object's does, so that serialising, printing,
 * awaiting or comparing a client (or an object that holds one) sends nothing.
 *
 * @module
 */

/**
 * A name `client.tools` has no shortcut for, in its type as at run time: a name libraries read of any object to tell
 * what it is (`then`, `toJSON`, `asymmetricMatch`, `nodeType`, `inspect`…), one of `Object.prototype`'s
 * (`constructor`, `toString`, `valueOf`…), or any name that starts with `_`. A tool of such a name is called with
 * `client.call(name, args)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ProbedName } from "./mod.ts";
 * const reserved: ProbedName[] = ["toJSON", "then", "constructor", "_private"];
 * assert.equal(reserved.length, 4);
 * ```
 */
export type ProbedName =
  | "then"
  | "toJSON"
  | "asymmetricMatch"
  | "nodeType"
  | "nodeName"
  | "tagName"
  | "hasAttribute"
  | "isEqualNode"
  | "inspect"
  | keyof typeof Object.prototype
  | `_${string}`;

/**
 * {@link ProbedName}'s names, each a property that a common library reads of any object to find out what it is
 * (a `Record`, so that the type and this table list the same names): `then` (`await`, `Promise.resolve()`: a
 * thenable), `toJSON` (`JSON.stringify`, pino, pretty-format), `asymmetricMatch` (Jest's `equals`), `nodeType`,
 * `nodeName`, `tagName`, `hasAttribute` and `isEqualNode` (pretty-format's DOM plugin, which calls
 * `hasAttribute("is")`; Jest's DOM equality), `inspect` (loupe, Chai's printer, and Node before
 * `util.inspect.custom`), and `Object.prototype`'s, which answer as `{}`'s. A leading `_` marks JavaScript's private
 * and meta properties (`__esModule`, `_isMockFunction`, Vue's `__v_skip`, Sentry's `__sentry_skip_normalization__`).
 * Names outside MCP's tool-name grammar (`$$typeof`, `@@__IMMUTABLE_ITERABLE__@@`, `@@iterator`) and symbols
 * (`Symbol.toPrimitive`, `Symbol.toStringTag`, `Symbol.for("nodejs.util.inspect.custom")`) are never tool names.
 */
const PROBED: Readonly<Record<Exclude<ProbedName, `_${string}`>, true>> = {
  then: true,
  toJSON: true,
  asymmetricMatch: true,
  nodeType: true,
  nodeName: true,
  tagName: true,
  hasAttribute: true,
  isEqualNode: true,
  inspect: true,
  constructor: true,
  toString: true,
  toLocaleString: true,
  valueOf: true,
  hasOwnProperty: true,
  isPrototypeOf: true,
  propertyIsEnumerable: true,
};

/**
 * MCP's tool-name grammar (MCP 2025-11-25, Server Features, Tools: Tool Names): 1 to 128 characters of ASCII
 * letters, digits, `_`, `-` and `.`; here without a leading `_` (see {@link ProbedName}).
 */
const SHORTCUT = /^[A-Za-z0-9.-][A-Za-z0-9_.-]{0,127}$/;

/**
 * Tells whether `client.tools[name]` calls a tool: a name of MCP's tool-name grammar that no common library
 * reads to find out what an object is.
 *
 * @param name The property read.
 * @returns Whether it is a tool's shortcut.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isToolShortcut } from "./tool-proxy.ts";
 * assert.equal(isToolShortcut("get_weather"), true);
 * assert.equal(isToolShortcut("toJSON"), false); // client.call("toJSON", args) calls a tool of that name
 * assert.equal(isToolShortcut("$$typeof"), false);
 * ```
 */
export function isToolShortcut(name: string | symbol): name is string {
  return typeof name === "string" && SHORTCUT.test(name) && !Object.hasOwn(PROBED, name);
}

/**
 * Creates `client.tools`: reading a tool's name gives a function that calls it; reading anything else answers as
 * `{}` does (no own keys, so `JSON.stringify` gives `{}`, `util.inspect` `{}`, and two of them are deep-equal).
 *
 * @param call Calls a tool.
 * @returns The proxy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolProxy } from "./tool-proxy.ts";
 * const called: string[] = [];
 * const tools = toolProxy((name) => (called.push(name), Promise.resolve(name)));
 * assert.equal(await tools.echo({}), "echo");
 * assert.equal(JSON.stringify({ tools }), '{"tools":{}}');
 * assert.equal(`${tools}`, "[object Object]");
 * assert.equal(await tools, tools); // not a thenable
 * assert.deepEqual(called, ["echo"]);
 * ```
 */
export function toolProxy(
  call: (name: string, args: Record<string, unknown>, options?: unknown) => Promise<unknown>,
): Readonly<Record<string, (args: Record<string, unknown>, options?: unknown) => Promise<unknown>>> {
  return new Proxy({}, {
    // The target is `{}`: every probe that is not `Object.prototype`'s reads `undefined` there.
    get: (target, name) =>
      isToolShortcut(name)
        ? (args: Record<string, unknown>, options?: unknown) => call(name, args, options)
        : Reflect.get(target, name),
  });
}
