/**
 * The `mcplite dev` page in headless Chromium: it lists the tools, prompts and resources, builds each
 * tool's form from its JSON Schema (numbers, enums, booleans, arrays, nested objects), calls the tool
 * and shows the result, a stream's progress and partials, and a tool's error; it answers the questions a
 * call asks (a form, a page to open); after an edit it lists the new tool without a reload, keeps what was
 * typed, and a syntax error shows with its file and line. Screenshots go where
 * the MCP Apps screenshots go (tests/apps/browser.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launch, NO_BROWSER, screenshotDir } from "../../apps/browser.ts";
import { type DevSession, SDK, SDK_ERRORS, startDev } from "./dev-session.ts";

if (NO_BROWSER) console.error(`dev-page: skipped: ${NO_BROWSER}`);

const server = (extra = "") =>
  `import * as v from "valibot";
import { createServer, definePrompt, defineResource, defineTool } from ${SDK};
import { ToolError } from ${SDK_ERRORS};

const add = defineTool("add").describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .output(v.object({ sum: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));
const configure = defineTool("configure").describe("Echoes its settings")
  .input(v.object({
    mode: v.picklist(["fast", "safe"]),
    verbose: v.boolean(),
    tags: v.array(v.string()),
    limits: v.object({ depth: v.pipe(v.number(), v.integer()), label: v.optional(v.string()) }),
  }))
  .handle((input) => ({ echoed: input }));
const count = defineTool("count").describe("Counts to three, streaming")
  .input(v.object({}))
  .stream(async function* (_input, ctx) {
    for (let i = 1; i <= 3; i++) {
      ctx.progress(i, 3, "step " + i);
      yield "line " + i + "\\n";
    }
  });
const refuse = defineTool("refuse").describe("Always fails").input(v.object({}))
  .handle(() => { throw new ToolError("the library is closed"); });
const confirm = defineTool("confirm").describe("Asks before it acts")
  .input(v.object({}))
  .handle(async (_input, ctx) => {
    const answer = await ctx.elicit("sure", {
      message: "Go ahead?",
      requestedSchema: { type: "object", properties: { sure: { type: "boolean" }, note: { type: "string" } }, required: ["sure"] },
    });
    return JSON.stringify(answer);
  });
const pay = defineTool("pay").describe("Sends the user to pay")
  .input(v.object({}))
  .handle(async (_input, ctx) => {
    const answer = await ctx.elicit("pay", { mode: "url", url: "https://pay.example.com/checkout?order=7", message: "Pay for order 7" });
    return answer.action;
  });
const hello = definePrompt("hello").describe("Says hello")
  .args(v.object({ name: v.string() })).get(({ name }) => "Say hello to " + name + ".");
const readme = defineResource("docs://readme").mimeType("text/markdown").read(() => "# Read me");

export const server = createServer({ name: "page-test", version: "1.0.0" })
  .tool(add).tool(configure).tool(count).tool(refuse).tool(confirm).tool(pay).prompt(hello).resource(readme)${extra};
`;

describe("the mcplite dev page", { skip: NO_BROWSER }, () => {
  let dev: DevSession;
  let browser: Browser;
  let page: Page;
  const shots = screenshotDir();

  before(async () => {
    dev = await startDev({ "server.ts": server() });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    await page.goto(`${dev.origin}/_dev`);
  });
  after(async () => {
    await browser?.close();
    await dev?.stop();
  });

  const pick = async (kind: string, key: string) => {
    await page.click(`button.pick[data-kind="${kind}"][data-key="${key}"]`, { timeout: 20_000 });
    await page.waitForSelector("#call");
  };
  const resultText = async () => {
    await page.waitForSelector("#result:not([hidden]), #error:not([hidden])", { timeout: 20_000 });
    return await page.textContent("#result");
  };

  it("lists what the server serves and calls a tool from its form", async () => {
    await page.waitForSelector('button.pick[data-key="add"]', { timeout: 20_000 });
    assert.match(await page.textContent("#status") ?? "", /ready/);
    assert.equal(await page.textContent("#tools-count"), "6");
    assert.equal(await page.textContent("#prompts-count"), "1");
    assert.equal(await page.textContent("#resources-count"), "1");
    assert.match(await page.textContent("#endpoints") ?? "", /MCP-lite .*\/mcp-lite\/v1/);
    await pick("tool", "add");
    await page.fill('[name="a"]', "2");
    await page.fill('[name="b"]', "3");
    await page.click("#call");
    assert.deepEqual(JSON.parse(await resultText() ?? ""), { sum: 5 });
    await page.screenshot({ path: join(shots, "dev-page-add.png"), fullPage: true });
  });

  it("builds enums, booleans, arrays and nested objects from the schema", async () => {
    await pick("tool", "configure");
    await page.selectOption('[name="mode"]', { label: "safe" });
    await page.check('[name="verbose"]');
    await page.click('[name="tags.add"]');
    await page.click('[name="tags.add"]');
    await page.fill('[name="tags.0"]', "red");
    await page.fill('[name="tags.1"]', "blue");
    await page.fill('[name="limits.depth"]', "4");
    await page.click("#call");
    const shown = JSON.parse(await resultText() ?? "");
    assert.deepEqual(shown, { echoed: { mode: "safe", verbose: true, tags: ["red", "blue"], limits: { depth: 4 } } });
    await page.screenshot({ path: join(shots, "dev-page-form-fields.png"), fullPage: true });
    // The raw JSON editor starts from the form's values and is what is sent once open.
    await page.click("#raw-toggle");
    assert.deepEqual(JSON.parse(await page.inputValue("#raw")), shown.echoed);
    await page.fill("#raw", JSON.stringify({ ...shown.echoed, mode: "fast" }));
    await page.click("#call");
    await page.waitForSelector('#result:has-text("\\"fast\\"")', { timeout: 20_000 });
    await page.screenshot({ path: join(shots, "dev-page-form-json.png"), fullPage: true });
  });

  it("shows a stream's progress and partials, a tool's error, a prompt and a resource", async () => {
    await pick("tool", "count");
    await page.click("#call");
    await resultText();
    assert.equal(await page.textContent("#partials"), "line 1\nline 2\nline 3\n");
    assert.match(await page.textContent("#progress-text") ?? "", /progress 3\/3 step 3/);
    await pick("tool", "refuse");
    await page.click("#call");
    await page.waitForSelector("#error:not([hidden])");
    assert.match(await page.textContent("#result") ?? "", /the library is closed/);
    await pick("prompt", "hello");
    await page.fill('[name="name"]', "Ada");
    await page.click("#call");
    assert.match(await resultText() ?? "", /Say hello to Ada\./);
    await pick("resource", "docs://readme");
    await page.click("#call");
    assert.match(await resultText() ?? "", /# Read me/);
  });

  it("answers the questions a call asks: a form, and a page to open (shown whole, never opened by itself)", async () => {
    await pick("tool", "confirm");
    await page.click("#call");
    await page.waitForSelector("#question", { timeout: 20_000 });
    assert.equal(await page.textContent("#question .message"), "Go ahead?");
    await page.check('#question [name="sure"]');
    await page.fill('#question [name="note"]', "carefully");
    await page.screenshot({ path: join(shots, "dev-page-question.png"), fullPage: true });
    await page.click("#question-accept");
    assert.deepEqual(JSON.parse(await resultText() ?? ""), {
      action: "accept",
      content: { sure: true, note: "carefully" },
    });
    assert.equal(await page.$("#question"), null, "the question is gone once answered");

    await pick("tool", "pay");
    await page.click("#call");
    await page.waitForSelector("#question-url", { timeout: 20_000 });
    assert.equal(await page.textContent("#question-url"), "https://pay.example.com/checkout?order=7");
    assert.equal(await page.getAttribute("#question-url", "rel"), "noopener noreferrer");
    await page.click("#question-decline");
    assert.equal(await resultText(), "decline");
  });

  it("follows a restart without a reload, and shows a load failure with its file and line", async () => {
    await page.evaluate(() => Object.assign(globalThis, { notReloaded: true }));
    const shout = `.tool(defineTool("shout").describe("Shouts").input(v.object({ word: v.string() }))
  .handle(({ word }) => word.toUpperCase() + "!"))`;
    dev.write("server.ts", server(shout));
    await pick("tool", "shout");
    await page.fill('[name="word"]', "hey");
    await page.click("#call");
    assert.equal(await resultText(), "HEY!");
    dev.write("server.ts", server(shout).replace("const add =", "const add = ;"));
    await page.waitForSelector("#failure:not([hidden])", { timeout: 20_000 });
    assert.match(await page.textContent("#failure-location") ?? "", /server\.ts:\d+/);
    assert.match(await page.textContent("#status") ?? "", /failed/);
    await page.screenshot({ path: join(shots, "dev-page-failure.png"), fullPage: true });
    dev.write("server.ts", server(shout));
    await page.waitForSelector("#status.ready", { timeout: 20_000 });
    assert.equal(await page.evaluate(() => (globalThis as { notReloaded?: boolean }).notReloaded), true);
  });

  it("keeps what was typed when the tool's description changes, and the fields a changed schema still has", async () => {
    const shout = `.tool(defineTool("shout").describe("Shouts").input(v.object({ word: v.string() }))
  .handle(({ word }) => word.toUpperCase() + "!"))`;
    await pick("tool", "add");
    await page.fill('[name="a"]', "2");
    await page.fill('[name="b"]', "3");
    dev.write("server.ts", server(shout).replace('"Adds two numbers"', '"Adds two numbers, exactly"'));
    await page.waitForFunction(
      `document.querySelector("#detail .description")?.textContent === "Adds two numbers, exactly"`,
      undefined,
      { timeout: 20_000 },
    );
    assert.equal(await page.inputValue('[name="a"]'), "2");
    assert.equal(await page.inputValue('[name="b"]'), "3");
    dev.write(
      "server.ts",
      server(shout).replace("v.object({ a: v.number(), b: v.number() })", "v.object({ a: v.number(), c: v.number() })"),
    );
    await page.waitForSelector('[name="c"]', { timeout: 20_000 });
    assert.equal(await page.inputValue('[name="a"]'), "2", "a field the new schema still has keeps its value");
    assert.equal(await page.$('[name="b"]'), null);
  });
});
