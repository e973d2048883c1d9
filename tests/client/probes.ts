/**
 * What loggers, printers and test frameworks do to any object they meet, done to a client and its `tools`:
 * serialise it (`JSON.stringify`, `util.format`'s `%j`), print it (`util.inspect`, `%o`), turn it into a string
 * (`String()`, a template literal, `+`), await it, and read the properties Jest's `expect` and pretty-format,
 * Vitest, loupe, React, Immutable, bundlers' interop and Vue read to tell what an object is. Shared by
 * tests/client/serialise-client.test.ts and the Node 22 program beside it (serialise-client-node.ts).
 */
import util from "node:util";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { type Client, createClient } from "../../src/client/mod.ts";

/**
 * A client of a server whose request middleware counts every method it runs, over a fetch spy that counts every
 * HTTP request the client sends (to the server's `fetch`, in process). The server has a tool named `toJSON`, which
 * `client.call("toJSON", …)` reaches.
 *
 * @param wire The client's wire.
 * @returns The client, the requests it sent and the methods the server ran.
 */
export function spiedClient(wire: "mcp-lite" | "mcp"): { client: Client; requests: string[]; methods: string[] } {
  const requests: string[] = [];
  const methods: string[] = [];
  const server = createServer({ name: "probed", version: "1.0.0" })
    .use(async (call, next) => {
      methods.push(call.name === undefined ? call.method : `${call.method} ${call.name}`);
      return await next();
    })
    .tool(
      defineTool("echo").describe("Echoes the text").input(v.object({ text: v.string() })).handle(({ text }) => text),
    )
    .tool(defineTool("toJSON").describe("A tool a probe would call").handle(() => "a tool named toJSON"));
  const fetch = (request: Request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
    return server.fetch(request);
  };
  const base = wire === "mcp" ? "http://127.0.0.1:9/mcp" : "http://127.0.0.1:9/mcp-lite/v1";
  return { client: createClient(base, { transport: wire, fetch }) as Client, requests, methods };
}

/** The properties libraries read of any object to tell what it is, each with where it is read. */
export const PROBES: readonly (string | symbol)[] = [
  "then", // await, Promise.resolve(): a thenable
  "toJSON", // JSON.stringify, pino, pretty-format
  "toString",
  "valueOf",
  "constructor", // node:assert, pretty-format's and Jest's type checks
  "asymmetricMatch", // Jest's equals: isAsymmetric()
  "$$typeof", // React elements, Jest's asymmetric matchers in pretty-format
  "nodeType", // pretty-format's DOMElement plugin, Jest's isDomNode()
  "nodeName",
  "tagName",
  "hasAttribute", // pretty-format's DOMElement plugin calls hasAttribute("is")
  "isEqualNode",
  "inspect", // loupe (Chai, Vitest), Node before util.inspect.custom
  "@@__IMMUTABLE_ITERABLE__@@", // pretty-format's Immutable plugin, Jest's equality
  "@@__IMMUTABLE_RECORD__@@",
  "@@__IMMUTABLE_KEYED__@@",
  "@@__IMMUTABLE_ORDERED__@@",
  "@@iterator",
  "_isMockFunction", // Jest's and Vitest's isMockFunction()
  "__esModule", // bundlers' default-import interop
  "__v_skip", // Vue's reactive()
  "hasOwnProperty",
  Symbol.toPrimitive,
  Symbol.toStringTag,
  Symbol.iterator,
  Symbol.asyncIterator,
  Symbol.for("nodejs.util.inspect.custom"),
  Symbol.for("Deno.customInspect"),
  Symbol.for("chai/inspect"),
];

/**
 * Does to a client and its `tools` what loggers, printers and test frameworks do, and returns what they printed.
 *
 * @param client The client.
 * @returns What each serialisation gave, by name.
 */
export async function probe(client: Client): Promise<Record<string, unknown>> {
  const { tools } = client;
  const read: Record<string, string> = {};
  for (const name of PROBES) {
    const value = (tools as unknown as Record<string | symbol, unknown>)[name];
    read[String(name)] = typeof value === "function" ? `function ${value.name}` : String(value);
  }
  return {
    json: JSON.stringify(tools),
    jsonClient: JSON.stringify(client),
    jsonHolder: JSON.stringify({ log: "called", client }),
    string: String(tools),
    template: `${tools} ${client}`,
    plus: "" + (tools as unknown as string),
    tag: Object.prototype.toString.call(tools),
    inspect: util.inspect(tools),
    inspectClient: util.inspect(client, { depth: 4 }),
    format: util.format("%o %O %j %s", tools, { client }, tools, tools),
    awaited: (await tools) === tools && (await Promise.resolve({ tools })).tools === tools,
    keys: Object.keys(tools),
    spread: { ...tools },
    deepEqual: util.isDeepStrictEqual(tools, {}),
    read,
  };
}
