/**
 * Interop in a real browser, host side official: a host page built from the official `Client` and
 * `AppBridge` (`@modelcontextprotocol/ext-apps/app-bridge`) renders the forecast example's view from
 * our server in a sandboxed iframe. The view (written with our `connectApp()`) shows the tool's result,
 * its Refresh button calls the app-only `refresh_forecast` tool through the bridge and shows the new
 * result, and the CSP built from the view's `_meta.ui.csp` blocks a fetch to an origin it did not list.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Frame, Page } from "playwright-core";
import { serve } from "../../mod.ts";
import { server } from "../../examples/apps/server.ts";
import type { Listener } from "../../src/server/serve.ts";
import { bundleForBrowser, launch, NO_BROWSER, screenshotDir } from "./browser.ts";

if (NO_BROWSER) console.error(`apps-official-bridge: skipped: ${NO_BROWSER}`);

/** Waits (bounded) until the view's frame exists and shows `text` in `selector`. */
async function viewFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (frame !== undefined && await frame.locator("#title").count().catch(() => 0) > 0) return frame;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no view frame; host log: ${JSON.stringify(await page.evaluate("globalThis.hostLog"))}`);
}

describe("MCP Apps: our view in the official AppBridge", { skip: NO_BROWSER }, () => {
  let listener: Listener;
  let browser: Browser;
  before(async () => {
    const host = bundleForBrowser("tests/apps/fixtures/official-host.ts").replaceAll("</script", "<\\/script");
    const page = `<!doctype html><html><head><title>official host</title></head><body>` +
      `<script type="module">${host}</script></body></html>`;
    // The host page and the MCP endpoint share one origin, as a web host's backend would.
    listener = await serve({
      fetch: (request) =>
        new URL(request.url).pathname === "/"
          ? new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } })
          : server.fetch(request),
    }, { port: 0, hostname: "127.0.0.1", quiet: true });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await listener?.close();
  });

  it("shows the tool result, carries the button's tool call, and enforces the view's CSP", async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const args = encodeURIComponent(JSON.stringify({ city: "Oslo", days: 4 }));
    await page.goto(`${listener.url}/?tool=forecast&args=${args}`, { timeout: 10_000 });
    const view = await viewFrame(page);
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
      doc.addEventListener("securitypolicyviolation", (e) => {
        violations.push((e as Event & { effectiveDirective: string }).effectiveDirective);
      });
      try {
        await fetch(url);
        return { fetched: true, violations };
      } catch (error) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { fetched: false, error: (error as Error).name, violations };
      }
    }, `${listener.url}/mcp`);
    assert.deepEqual(blocked, { fetched: false, error: "TypeError", violations: ["connect-src"] });
    const log = await page.evaluate("globalThis.hostLog") as string[];
    assert.ok(log.includes("initialized") && log.includes("result sent"), JSON.stringify(log));
    assert.ok(!log.some((line) => line.startsWith("error")), JSON.stringify(log));
  });
});
