/**
 * `mcplite app`, the local preview host, started as a user starts it (a child process of the runtime
 * running the tests), against servers this process serves; the page it prints is loaded in Chromium.
 * It renders the forecast example's view (our `connectApp()`) and carries its Refresh call to the
 * app-only tool; and it renders a view written with the official `App` class, carries its
 * `callServerTool()`, refuses its call to a model-only tool (SEP-1865, Visibility), shows its
 * `ui/message`, answers its `listServerResources()` from the server, and tears it down when it asks
 * (`requestTeardown()`). Screenshots go to a temp directory.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import type { Browser, Frame, Page } from "playwright-core";
import { createServer, defineTool, serve } from "../../mod.ts";
import { defineApp } from "../../src/apps/mod.ts";
import { server as weather } from "../../examples/apps/server.ts";
import type { Listener } from "../../src/server/serve.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT } from "../helpers/process.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { bundleForBrowser, launch, NO_BROWSER, screenshotDir, viewFrame } from "./browser.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

if (NO_BROWSER) console.error(`apps-preview: skipped: ${NO_BROWSER}`);

/** A server whose view is written with the official App class. */
function officialViewServer() {
  const script = bundleForBrowser("tests/apps/fixtures/official-view.ts").replaceAll("</script", "<\\/script");
  const view = defineApp("ui://calc/view").html(
    `<!doctype html><html><head><title>calc</title></head><body>` +
      `<p id="host"></p><p id="input"></p><p id="result">waiting</p>` +
      `<button id="double">Double</button><p id="doubled"></p>` +
      `<button id="secret">Secret</button><p id="refused"></p>` +
      `<button id="message">Message</button>` +
      `<button id="resources">Resources</button><p id="listed"></p><button id="close">Close</button>` +
      `<script type="module">${script}</script></body></html>`,
  );
  return createServer({ name: "calc", version: "1.0.0" })
    .tool(
      defineTool("add").describe("Adds").input(v.object({ a: v.number(), b: v.number() }))
        .output(v.object({ sum: v.number() })).ui(view).handle(({ a, b }) => ({ sum: a + b })),
    )
    .tool(
      defineTool("double").describe("Doubles").input(v.object({ n: v.number() }))
        .output(v.object({ value: v.number() })).ui(view, { visibility: ["app"] }).handle(({ n }) => ({
          value: n * 2,
        })),
    )
    .tool(defineTool("secret").describe("Model only").ui(view, { visibility: ["model"] }).handle(() => "secret"));
}

/** Starts `mcplite app` (on this runtime, or with `node`); resolves with the page's URL (the first line on stdout), bounded. */
function startPreview(args: string[], node?: string): Promise<{ url: string; child: ChildProcess }> {
  const { command, args: runtimeArgs } = node === undefined
    ? runtimeCommand(`${ROOT}src/cli/main.ts`)
    : { command: node, args: [`${ROOT}src/cli/bin.mjs`] }; // Node 22 runs the sources (it strips the types)
  const child = spawn(command, [...runtimeArgs, "app", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let out = "", err = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no preview URL in 30 s; stderr: ${err}`));
    }, 30_000);
    child.stderr!.on("data", (chunk) => void (err += chunk));
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const line = out.split("\n")[0];
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve({ url: line.trim(), child });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mcplite app exited with ${code}: ${err}`));
    });
  });
}

/**
 * Stops the preview with Ctrl-C (SIGINT), bounded, and tells whether it ended cleanly: exit code 0.
 * Deno's node:child_process reports a child's exit after kill("SIGINT") as the signal itself (as
 * tests/cli/cli.test.ts notes), so under Deno the signal stands for the code.
 */
function stopPreview(child: ChildProcess): Promise<boolean> {
  const isDeno = (globalThis as { Deno?: unknown }).Deno !== undefined;
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode === 0);
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 || (isDeno && signal === "SIGINT"));
    });
    child.kill("SIGINT");
  });
}

describe("mcplite app: the local preview host", { skip: NO_BROWSER }, () => {
  let browser: Browser;
  const listeners: Listener[] = [];
  const shots = screenshotDir();
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    for (const listener of listeners) await listener.close();
  });

  /** The preview of `forecast` for Lima over 3 days, opened, its view showing the three days. */
  async function forecastView(url: string): Promise<{ page: Page; view: Frame }> {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(url, { timeout: 10_000 });
    const view = await viewFrame(page, "#title");
    await view.locator("#title", { hasText: /^Lima: 3 days \(version \d+\)$/ }).waitFor();
    assert.equal(await view.locator("#days tbody tr").count(), 3);
    return { page, view };
  }

  it("renders the forecast example's view and carries its Refresh call", async () => {
    const listener = await serve(weather, { port: 0, hostname: "127.0.0.1", quiet: true });
    listeners.push(listener);
    const { url, child } = await startPreview([listener.url, "forecast", "--arg", "city=Lima", "--arg", "days=3"]);
    try {
      const { page, view } = await forecastView(url);
      assert.match(await page.locator("#result").innerText(), /"structuredContent"/);
      await view.locator("#refresh").click();
      await view.locator("#status", { hasText: /refreshed \(version \d+\)/ }).waitFor();
      await page.screenshot({ path: join(shots, "preview-forecast.png") });
    } finally {
      assert.ok(await stopPreview(child), "Ctrl-C ends the preview cleanly");
    }
  });

  it("renders the forecast example's view with mcplite app running on Node 22", { skip: ONCE_PER_RUN }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    const listener = await serve(weather, { port: 0, hostname: "127.0.0.1", quiet: true });
    listeners.push(listener);
    const { url, child } = await startPreview(
      [listener.url, "forecast", "--arg", "city=Lima", "--arg", "days=3"],
      node,
    );
    try {
      await forecastView(url);
    } finally {
      assert.ok(await stopPreview(child), "Ctrl-C ends the preview cleanly");
    }
  });

  it("renders a view written with the official App class: its calls, model-only refusals, resource list and teardown", async () => {
    const listener = await serve(officialViewServer(), { port: 0, hostname: "127.0.0.1", quiet: true });
    listeners.push(listener);
    const { url, child } = await startPreview([`${listener.url}/mcp`, "add", "--args", '{"a": 2, "b": 3}']);
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(url, { timeout: 10_000 });
      const view = await viewFrame(page, "#result");
      await view.locator("#result", { hasText: "sum 5" }).waitFor();
      assert.equal(await view.locator("#input").innerText(), 'input {"a":2,"b":3}');
      assert.equal(await view.locator("#host").innerText(), "host mcplite-preview");
      await view.locator("#double").click();
      await view.locator("#doubled", { hasText: "doubled 42" }).waitFor();
      await view.locator("#secret").click();
      await view.locator("#refused", { hasText: /^refused: .*not callable from the view/ }).waitFor();
      await view.locator("#message").click();
      await page.locator("#events li", { hasText: "hello from the official view" }).waitFor();
      // The host advertises serverResources: the view's listServerResources() gets the server's list.
      await view.locator("#resources").click();
      await view.locator("#listed", { hasText: /^resources / }).waitFor();
      assert.equal(await view.locator("#listed").innerText(), "resources ui://calc/view");
      await page.screenshot({ path: join(shots, "preview-official-app.png") });
      // SEP-1865, Cleanup: the view asks to close; the host sends ui/resource-teardown, then removes it.
      await view.locator("#close").click();
      await page.locator("#events li", { hasText: "the view cleaned up" }).waitFor();
      await page.locator("#events li", { hasText: "view removed" }).waitFor();
      assert.equal(await page.locator("iframe#view").count(), 0);
    } finally {
      assert.ok(await stopPreview(child), "Ctrl-C ends the preview cleanly");
    }
  });
});
