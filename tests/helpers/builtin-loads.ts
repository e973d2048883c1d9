// Child script of tests/internal/lazy-node-crypto.test.ts: records every module the SDK asks
// `process.getBuiltinModule` for while it imports, builds a server, answers a plain call, then a
// promise and its redeem; prints the list after each step as one JSON line.
import process from "node:process";
import * as v from "valibot";

const asked: string[] = [];
const real = process.getBuiltinModule.bind(process);
(process as { getBuiltinModule: (id: string) => unknown }).getBuiltinModule = (id: string) => {
  asked.push(id);
  return real(id);
};
const report = (step: string) => console.log(JSON.stringify({ step, asked: [...asked] }));

const sdk = await import("../../mod.ts");
report("import");
const add = sdk.defineTool("add")
  .describe("Adds")
  .input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));
const slow = sdk.defineTool("slow")
  .describe("Answers later")
  .input(v.object({}))
  .handle((_args, ctx) => ctx.promise({ state: { n: 1 } }))
  .redeem(({ n }) => ({ n }));
const server = sdk.createServer({ name: "b", version: "1.0.0", secret: "x".repeat(32) }).tool(add).tool(slow);
const plain = await server.call("add", { a: 1, b: 2 });
if (plain.kind !== "answer") throw new Error("no answer");
report("plain call");
const promised = await server.call("slow", {});
if (promised.kind !== "promise") throw new Error("no promise");
const redeemed = await server.call("redeem", { promise: promised.token });
if (redeemed.kind !== "answer") throw new Error("not redeemed");
report("promise");
