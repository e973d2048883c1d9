/**
 * Interop in a real browser, host side official: a host page built from the official `Client` and
 * `AppBridge` (`@modelcontextprotocol/ext-apps/app-bridge`) renders the forecast example's view from
 * our server in a sandboxed iframe. The view (written with our `connectApp()`) shows the tool's result,
 * its Refresh button calls the app-only `refresh_forecast` tool through the bridge and shows the new
 * result, and the CSP built from the view's `_meta.ui.csp` blocks a fetch to an origin it did not list.
 * A second view, also ours, sends every other request a view has (`ui/message`, `ui/update-model-context`,
 * `ui/request-display-mode`, `ui/open-link`, `resources/read`, logs) and answers the bridge's
 * `host-context-changed` (applying the host's theme and CSS variables), `tool-cancelled` and
 * `ui/resource-teardown`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Frame, Page } from "playwright-core";
import * as v from "valibot";
import { createServer, defineTool, serve } from "../../mod.ts";
import { defineApp } from "../../src/apps/mod.ts";
import { server } from "../../examples/apps/server.ts";
import type { Listener } from "../../src/server/serve.ts";
import { bundleForBrowser, launch, NO_BROWSER, screenshotDir, viewFrame } from "./browser.ts";

if (NO_BROWSER) console.error(`apps-official-bridge: skipped: ${NO_BROWSER}`);

/** The view's frame once it holds `selector` (bounded), failing with the host's log. */
function viewFrameOf(page: Page, selector = "#title"): Promise<Frame> {
  return viewFrame(
    page,
    selector,
    async () => `host log: ${JSON.stringify(await page.evaluate("globalThis.hostLog"))}`,
  );
}

/** A server whose one tool shows the view that exercises the rest of the view's half. */
function featuresServer() {
  const script = bundleForBrowser("tests/apps/fixtures/our-view-features.ts").replaceAll("</script", "<\\/script");
  const view = defineApp("ui://features/view").html(
    `<!doctype html><html><head><title>features</title></head><body><button id="run">Run</button>` +
      `<ul id="log"></ul><script type="module">${script}</script></body></html>`,
  );
  return createServer({ name: "features", version: "1.0.0" }).tool(
    defineTool("features").describe("Shows the features view").input(v.object({ n: v.number() }))
      .output(v.object({ twice: v.number() })).ui(view).handle(({ n }) => ({ twice: n * 2 })),
  );
}

describe("MCP Apps: our view in the official AppBridge", { skip: NO_BROWSER }, () => {
  const listeners: Listener[] = [];
  let browser: Browser;
  let hostPage: string;
  /** Serves the host page and, on the same origin as a web host's backend would, the server's MCP endpoint. */
  const hosting = async (mcp: { fetch(request: Request): Response | Promise<Response> }) => {
    const listener = await serve({
      fetch: (request) =>
        new URL(request.url).pathname === "/"
          ? new Response(hostPage, { headers: { "content-type": "text/html; charset=utf-8" } })
          : mcp.fetch(request),
    }, { port: 0, hostname: "127.0.0.1", quiet: true });
    listeners.push(listener);
    return listener;
  };
  before(async () => {
    const host = bundleForBrowser("tests/apps/fixtures/official-host.ts").replaceAll("</script", "<\\/script");
    hostPage = `<!doctype html><html><head><title>official host</title></head><body>` +
      `<script type="module">${host}</script></body></html>`;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    for (const listener of listeners) await listener.close();
  });

  it("shows the tool result, carries the button's tool call, and enforces the view's CSP", async () => {
    const listener = await hosting(server);
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const args = encodeURIComponent(JSON.stringify({ city: "Oslo", days: 4 }));
    await page.goto(`${listener.url}/?tool=forecast&args=${args}`, { timeout: 10_000 });
    const view = await viewFrameOf(page);
    await view.locator("#title", { hasText: "Oslo: 4 days (version 1)" }).waitFor();
    assert.equal(await view.locator("#days tbody tr").count(), 4, "one table row a day");
    assert.equal(await view.locator("#chart rect").count(), 4, "one bar a day");
    const shots = screenshotDir();
    await page.screenshot({ path: join(shots, "official-bridge-result.png") });

    await view.locator("#refresh").click();
    await view.locator("#status", { hasText: /refreshed \(version \d+\)/ }).waitFor();
    assert.match(await view.locator("#title").innerText(), /^Oslo: 5 days \(version \d+\)$/);
    await page.screenshot({ path: join(shots, "official-bridge-refreshed.png") });

    // The view declared only https://api.open-meteo.com: the host's own origin is refused by the CSP.
    const blocked = await view.evaluate(async (url) => {
      const violations: string[] = [];
      const doc = (globalThis as unknown as { document: EventTarget }).document;
      const reported = new Promise<void>((resolve) =>
        doc.addEventListener("securitypolicyviolation", (e) => {
          violations.push((e as Event & { effectiveDirective: string }).effectiveDirective);
          resolve();
        })
      );
      try {
        await fetch(url);
        return { fetched: true, violations };
      } catch (error) {
        // The violation's event, as the page dispatches it (5 s at most: then none came).
        await Promise.race([reported, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        return { fetched: false, error: (error as Error).name, violations };
      }
    }, `${listener.url}/mcp`);
    assert.deepEqual(blocked, { fetched: false, error: "TypeError", violations: ["connect-src"] });
    const log = await page.evaluate("globalThis.hostLog") as string[];
    assert.ok(log.includes("initialized") && log.includes("result sent"), JSON.stringify(log));
    assert.ok(!log.some((line) => line.startsWith("error")), JSON.stringify(log));
  });

  it("sends every other request a view has, and answers the host's notifications and teardown", async () => {
    const listener = await hosting(featuresServer());
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const args = encodeURIComponent(JSON.stringify({ n: 21 }));
    await page.goto(`${listener.url}/?tool=features&args=${args}`, { timeout: 10_000 });
    const view = await viewFrameOf(page, "#log");
    const lines = view.locator("#log li");
    await view.locator("#log li", { hasText: 'result {"twice":42}' }).waitFor();
    await view.locator("#run").click();
    await view.locator("#log li", { hasText: "done" }).waitFor();
    const hostLog = () => page.evaluate("globalThis.hostLog") as Promise<string[]>;
    for (
      const line of [
        "message hi from our view",
        'model context {"picked":3}',
        "display mode fullscreen",
        "open https://example.com/docs",
        "log info logged from the view",
      ]
    ) assert.ok((await hostLog()).includes(line), `${line} in ${JSON.stringify(await hostLog())}`);
    await page.evaluate(`globalThis.bridge.sendHostContextChange({ theme: "dark",
      styles: { variables: { "--color-text-primary": "rgb(1, 2, 3)" } } })`);
    await view.locator("#log li", { hasText: 'context {"theme":"dark"' }).waitFor();
    assert.deepEqual(
      await view.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: any } }).document.documentElement;
        return [root.dataset.theme, root.style.colorScheme, root.style.getPropertyValue("--color-text-primary")];
      }),
      ["dark", "dark", "rgb(1, 2, 3)"],
    );
    await page.evaluate(`globalThis.bridge.sendToolCancelled({ reason: "stopped by the user" })`);
    await view.locator("#log li", { hasText: "cancelled stopped by the user" }).waitFor();
    await page.evaluate("globalThis.bridge.teardownResource({})"); // resolves once the view answered
    const seen = await lines.allInnerTexts();
    assert.equal(seen.at(-1), "teardown", JSON.stringify(seen));
    assert.ok(seen.includes("host official-host theme light"), JSON.stringify(seen));
    assert.ok(
      seen.includes("mode fullscreen") && seen.includes("read text/html;profile=mcp-app"),
      JSON.stringify(seen),
    );
    assert.ok(seen.includes('input {"n":21}'), JSON.stringify(seen));
    assert.deepEqual(
      await page.evaluate("[globalThis.bridge.getAppVersion(), globalThis.bridge.getAppCapabilities()]"),
      [{ name: "features", version: "1.0.0" }, { availableDisplayModes: ["inline", "fullscreen"] }],
    );
  });
});
