/**
 * Type tests for `proxy<S>()`: typed by the remote's type as `createClient<S>()` is, its tools keep their
 * arguments and results through `group()`, under the prefix; untyped, any name. Checked by `deno check`
 * (`deno check tests/`), never run.
 */
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

const add = defineTool("add")
  .input(v.object({ a: v.number(), b: v.number() }))
  .output(v.object({ sum: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));
const remote = createServer({ name: "math", version: "1.0.0" }).tool(add);

async function typed(): Promise<void> {
  const gateway = createServer({ name: "gateway", version: "1.0.0" })
    .group("math", await proxy<typeof remote>("http://127.0.0.1:8001/mcp"));
  const client = createClient(gateway);
  const { sum } = await client.call("math.add", { a: 1, b: 2 });
  type _Sum = Expect<Equal<typeof sum, number>>;
  // @ts-expect-error: the remote's tool is served under the prefix only
  await client.call("add", { a: 1, b: 2 });
  // @ts-expect-error: its arguments are the remote's
  await client.call("math.add", { a: "1", b: 2 });
}

async function untyped(): Promise<void> {
  const gateway = createServer({ name: "gateway", version: "1.0.0" })
    .group("any", await proxy({ command: "python", args: ["server.py"] }));
  const result = await createClient(gateway).call("any.whatever", { x: 1 });
  type _Unknown = Expect<Equal<typeof result, unknown>>;
}

void typed;
void untyped;
