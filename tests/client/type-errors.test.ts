/**
 * The type errors a client user meets most read as plain sentences: a wrong tool name in
 * `client.call()` lists the tool names, not the generic types that compute them. `// @ts-expect-error`
 * in `types.test-d.ts` proves such a call does not compile; this test pins what the compiler says, by
 * type-checking a user's snippets with `deno check` (from a scratch folder inside the repository, so that its
 * config, import map and node_modules resolve) and reading each snippet's messages. One `deno check` for every snippet
 * (the messages name the file they are about), its first root the SDK's mod.ts, as other checks' (SDK_CHECK_ROOT).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, it } from "node:test";
import { ROOT, type Run, run } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { SDK_CHECK_ROOT } from "../helpers/generated-types.ts";

const DENO = `${ROOT}node_modules/.bin/deno`;

/** A user's code (in a folder tests/client/.type-errors-…) with two typos: an unknown tool name, and a number where the tool takes a string. */
const SNIPPET = `
import * as v from "valibot";
import { createServer, defineTool } from "../../../mod.ts";
import { createClient } from "../../../src/client/mod.ts";

const search = defineTool("search").input(v.object({ query: v.string() })).handle(({ query }) => query);
const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b);
const server = createServer({ name: "demo", version: "1.0.0" }).tool(search).tool(add);
const client = createClient(server);
export async function typos() {
  await client.call("nope", {});
  await client.call("search", { query: 1 });
}
`;

/**
 * A user's subscriptions with three mistakes: an unknown event name, an argument key the event does not take, and
 * no secret (the caller makes it, since its receiver must know it before the server's challenge).
 */
const EVENTS_SNIPPET = `
import * as v from "valibot";
import { createServer } from "../../../mod.ts";
import { defineEvent } from "../../../src/events/mod.ts";
import { createClient } from "../../../src/client/mod.ts";

const shipped = defineEvent("order.shipped").input(v.object({ customerId: v.string() }));
const server = createServer({ name: "shop", version: "1.0.0" }).event(shipped).event(defineEvent("stock.low"));
const client = createClient<typeof server>("http://127.0.0.1:8000");
const secret = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
const url = "https://example.com/";
export async function typos() {
  await client.events.subscribe("order.shiped", { arguments: { customerId: "c1" }, url, secret });
  await client.events.subscribe("order.shipped", { arguments: { customer: "c1" }, url, secret });
  await client.events.subscribe("order.shipped", { arguments: { customerId: "c1" }, url });
}
`;

/** The snippets, by the file each is checked as. */
const SNIPPETS = { "tools.ts": SNIPPET, "events.ts": EVENTS_SNIPPET };

/**
 * What `deno check` said about one snippet: its exit code (the run's), and the messages located in its file (each
 * diagnostic ends with the `at file:///…:line:column` of its place).
 */
interface Checked {
  readonly code: number | null;
  readonly text: string;
}

describe("client type errors", () => {
  // Every snippet in one `deno check`, run by the first test that needs it, within that test's timeout (Bun bounds
  // a before() hook by the run's --timeout). In a hidden folder inside the repository (deno.json and tools/test.mjs
  // leave tests/**/.*/ alone), so that the snippets resolve `valibot` and the SDK as a user's project would.
  const dir = scratchDir(".type-errors-", `${ROOT}tests/client`);
  let checking: Promise<Run> | undefined;
  const checked = async (name: keyof typeof SNIPPETS): Promise<Checked> => {
    checking ??= (() => {
      for (const [file, snippet] of Object.entries(SNIPPETS)) {
        writeFileSync(join(dir, file), snippet);
      }
      // NO_COLOR: deno's diagnostics without colour escapes, read as a user reads them. The SDK's mod.ts first
      // (SDK_CHECK_ROOT): the check then starts from what another check of the run knew of the SDK.
      return run(DENO, ["check", SDK_CHECK_ROOT, ...Object.keys(SNIPPETS)], 170_000, dir, {
        ...process.env,
        NO_COLOR: "1",
      });
    })();
    const { code, stderr } = await checking;
    const at = `at file://${join(dir, name)}:`;
    const text = stderr.split(/\n(?=TS\d+ \[ERROR\])/).filter((diagnostic) => diagnostic.includes(at)).join("\n");
    assert.notEqual(text, "", `no message about ${name}:\n${stderr}`);
    return { code, text };
  };

  it(
    "name the tools a wrong name could have been, and the argument's expected type",
    { timeout: 180_000 },
    async () => {
      const { code, text } = await checked("tools.ts");
      assert.notEqual(code, 0, "the snippet must not type-check");
      assert.match(text, /Argument of type '"nope"' is not assignable to parameter of type '"search" \| "add"'\./);
      assert.match(text, /Type 'number' is not assignable to type 'string'\./);
      assert.doesNotMatch(text, /ToolName<|NonNullable</, "no generic machinery in the messages");
    },
  );

  it(
    "name the events a wrong event name could have been, the argument key a subscription does not take, the secret",
    { timeout: 180_000 },
    async () => {
      const { code, text } = await checked("events.ts");
      assert.notEqual(code, 0, "the snippet must not type-check");
      assert.match(
        text,
        /Argument of type '"order\.shiped"' is not assignable to parameter of type '"order\.shipped" \| "stock\.low"'\./,
      );
      assert.match(text, /'customer' does not exist in type '\{ customerId: string; \}'/);
      assert.match(
        text,
        /Property 'secret' is missing in type '\{ arguments: \{ customerId: string; \}; url: string; \}'/,
      );
      assert.doesNotMatch(text, /EventsOf<|NonNullable</, "no generic machinery in the messages");
    },
  );
});
