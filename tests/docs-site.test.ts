/**
 * The built documentation site (`npm run docs:build`, VitePress plus the `deno doc --html` API
 * reference): no internal link in its HTML is broken (the target file exists, and so does the anchor),
 * and in Chromium every page of the navigation loads without a console error and the local search finds
 * "redeem". The site is built again when a file under docs/ is newer than the last build.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { launch, NO_BROWSER } from "./apps/browser.ts";
import { ROOT, run } from "./helpers/process.ts";
import { ONCE_PER_RUN, RECIPE_BUILD } from "./helpers/once-per-run.ts";

const DOCS = join(ROOT, "docs");
const DIST = join(DOCS, ".vitepress", "dist");

/** Every file under a folder, relative to it; `skip` leaves folders out. */
function files(dir: string, skip: (name: string) => boolean = () => false, sub = ""): string[] {
  return readdirSync(join(dir, sub), { withFileTypes: true }).flatMap((entry) => {
    const path = sub === "" ? entry.name : `${sub}/${entry.name}`;
    if (skip(entry.name)) return [];
    return entry.isDirectory() ? files(dir, skip, path) : [path];
  });
}

/** The time of the newest source of the site (pages, config, scripts, bench/RESULTS.md). */
function newestSource(): number {
  const sources = files(DOCS, (name) => name === "dist" || name === "cache" || name === "perf").map((f) =>
    join(DOCS, f)
  );
  return Math.max(...[...sources, join(ROOT, "bench", "RESULTS.md")].map((f) => statSync(f).mtimeMs));
}

/**
 * Builds the site unless the last build is newer than its sources, once per run: each test awaits it
 * under its own timeout (Bun's `--timeout` bounds `before` hooks too, whatever their own option says).
 */
let building: Promise<void> | undefined;
const built = (): Promise<void> => building ??= build();

async function build(): Promise<void> {
  const index = join(DIST, "api", "index.html");
  if (existsSync(index) && statSync(join(DIST, "index.html")).mtimeMs > newestSource()) return;
  const built = await run("npm", ["run", "docs:build"], 540_000); // about 80 s on a quiet machine; far more when loaded
  assert.equal(built.code, 0, `npm run docs:build failed:\n${built.stdout}${built.stderr}`);
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

/** Serves the built site on 127.0.0.1, as GitHub Pages does (a folder's index.html, 404 otherwise). */
function serveSite(): Promise<Server> {
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    if (path.endsWith("/")) path += "index.html";
    const file = join(DIST, path);
    if (!file.startsWith(DIST) || !existsSync(file) || statSync(file).isDirectory()) {
      response.writeHead(404).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    response.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** What a page shows: its text without tags, scripts and styles, entities decoded, spaces collapsed. */
function visibleText(html: string): string {
  return html.replace(/<(script|style|svg)\b[\s\S]*?<\/\1>/g, "").replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"').replace(/&#x2F;/g, "/").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
    .replace(/\s+/g, " ").trim();
}

/** The hrefs of an HTML fragment, in order, entities decoded. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1].replace(/&#x2F;/g, "/").replace(/&amp;/g, "&"));
}

/** The file a site path names, or undefined. */
function target(path: string): string | undefined {
  const file = join(DIST, path.endsWith("/") ? `${path}index.html` : path);
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

describe("the documentation site", { skip: ONCE_PER_RUN || RECIPE_BUILD }, () => {
  const BUILD = { timeout: 600_000 };

  it("has every page the issue lists, and the API reference of every entry point", BUILD, async () => {
    await built();
    for (
      const page of [
        "index.html",
        "getting-started/deno.html",
        "getting-started/bun.html",
        "getting-started/node.html",
        "getting-started/workers.html",
        "concepts/envelope.html",
        "concepts/long-running.html",
        "guides/mcp.html",
        "guides/cli.html",
        "migrating/from-fastmcp.html",
        "performance.html",
        "specification.html",
        "perf/call.svg",
        "api/index.html",
        "api/all_symbols.html",
      ]
    ) assert.ok(target(`/${page}`), `${page} is built`);
    assert.match(readFileSync(join(DIST, "perf", "call.svg"), "utf8"), /<svg[^>]*>[\s\S]*<rect/);
  });

  it("opens the API reference on every entry point: its import, its purpose, its guide", BUILD, async () => {
    await built();
    const page = readFileSync(join(DIST, "api", "index.html"), "utf8");
    const jsr = JSON.parse(readFileSync(join(ROOT, "jsr.json"), "utf8"));
    const rows = [...page.matchAll(/<tr><td>(.*?)<\/td><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/g)];
    assert.equal(rows.length, Object.keys(jsr.exports).length, "one row per entry point of jsr.json");
    for (const [key, file] of Object.entries<string>(jsr.exports)) {
      const specifier = key === "." ? jsr.name : `${jsr.name}/${key.slice(2)}`;
      const row = rows.find(([, cell]) => visibleText(cell) === specifier);
      assert.ok(row, `${specifier} is listed`);
      const [, imported, purpose, guide] = row;
      assert.equal(hrefs(imported)[0], `./${file.slice(2)}/index.html`);
      assert.ok(visibleText(purpose).length >= 20, `${specifier}: one line of purpose`);
      const [guidePage] = hrefs(guide);
      assert.match(guidePage, /^\.\.\/(guides|concepts|getting-started)\/|^\.\.\/public-api\.html$/, specifier);
      for (const href of [hrefs(imported)[0], guidePage]) {
        assert.ok(target(new URL(href, "http://x/api/index.html").pathname), `${specifier}: ${href} is built`);
      }
    }
    // The way back to the guides.
    assert.ok(hrefs(page).includes("../getting-started/index.html"));
    assert.match(visibleText(rows.find(([, cell]) => visibleText(cell) === `${jsr.name}/client`)![3]), /typed client/i);
  });

  it(
    "names each symbol's module as a user imports it, never by its file, nor links the build's files",
    BUILD,
    async () => {
      await built();
      const page = readFileSync(join(DIST, "api", "src", "client", "mod.ts", "~", "createClient.html"), "utf8");
      assert.doesNotMatch(page, /href="file:/, "no link to the build machine's files");
      const symbol = visibleText(page);
      assert.ok(symbol.includes('import { createClient } from "@mcplite/sdk/client";'), "the usage block");
      assert.ok(symbol.startsWith("createClient - @mcplite/sdk/client - "), "the title");
      assert.doesNotMatch(symbol, /src\/client\/mod\.ts/);
      const root = visibleText(readFileSync(join(DIST, "api", "mod.ts", "~", "defineTool.html"), "utf8"));
      assert.ok(root.includes('import { defineTool } from "@mcplite/sdk";'), "the root's usage block");
      // The all-symbols page heads each module with its import.
      const all = readFileSync(join(DIST, "api", "all_symbols.html"), "utf8");
      const headings = [...all.matchAll(/class="link text-xl font-bold">([^<]+)</g)].map((m) => visibleText(m[1]));
      const jsr = JSON.parse(readFileSync(join(ROOT, "jsr.json"), "utf8"));
      const specifiers = Object.keys(jsr.exports).map((key) => key === "." ? jsr.name : `${jsr.name}/${key.slice(2)}`);
      assert.deepEqual(headings.toSorted(), specifiers.toSorted());
    },
  );

  it("has no broken internal link: every href names a file that exists, and its anchor", BUILD, async () => {
    await built();
    const pages = files(DIST, (name) => name === "api" || name === "assets").filter((f) => f.endsWith(".html"));
    const ids = new Map<string, Set<string>>();
    const idsOf = (file: string) => {
      if (!ids.has(file)) {
        ids.set(file, new Set([...readFileSync(file, "utf8").matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])));
      }
      return ids.get(file)!;
    };
    const broken: string[] = [];
    for (const page of pages) {
      const html = readFileSync(join(DIST, page), "utf8");
      for (const [, href] of html.matchAll(/\shref="([^"]*)"/g)) {
        if (/^[a-z]+:|^\/\//i.test(href)) continue; // another site, mailto:
        const [path, anchor] = href.split("#");
        const file = path === "" ? join(DIST, page) : target(new URL(path, `http://x/${page}`).pathname);
        if (file === undefined) broken.push(`${page}: ${href} (no such file)`);
        else if (anchor && file.endsWith(".html") && !idsOf(file).has(decodeURIComponent(anchor))) {
          broken.push(`${page}: ${href} (no such anchor)`);
        }
      }
    }
    assert.ok(pages.length >= 35, `${pages.length} pages`);
    assert.deepEqual(broken, []);
  });

  describe("in Chromium", { skip: NO_BROWSER }, () => {
    let site: Server;
    let origin: string;
    before(async () => {
      site = await serveSite();
      origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    });
    after(() => site?.close());

    it("loads every page of the navigation without a console error", { timeout: 400_000 }, async () => {
      await built();
      const sidebar = readFileSync(join(DIST, "guides", "mcp.html"), "utf8").split('id="VPSidebarNav"')[1]
        .split("</nav>")[0];
      const links = [...new Set([...sidebar.matchAll(/href="(\/[^"#]*)"/g)].map((m) => m[1]))];
      assert.ok(links.length >= 35, `${links.length} links in the navigation`);
      const browser = await launch();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on("console", (message) => {
          if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
        });
        page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
        page.on("response", (response) => {
          if (response.status() >= 400) errors.push(`${page.url()}: ${response.status()} for ${response.url()}`);
        });
        for (const link of ["/", ...links]) {
          const response = await page.goto(origin + link, { waitUntil: "load", timeout: 15_000 });
          assert.equal(response?.status(), 200, link);
          if (!link.startsWith("/api/")) await page.locator(".VPContent").waitFor({ timeout: 10_000 });
        }
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
      }
    });

    it("finds redeem with the local search", { timeout: 360_000 }, async () => {
      await built();
      const browser = await launch();
      try {
        const page = await browser.newPage();
        await page.goto(`${origin}/getting-started/`, { waitUntil: "load" });
        await page.locator(".VPNavBarSearch button").first().click();
        await page.locator("#localsearch-input").fill("redeem");
        const results = page.locator(".VPLocalSearchBox .result");
        await results.first().waitFor({ timeout: 10_000 });
        const pages = await results.evaluateAll((links) => links.map((link) => link.getAttribute("href")));
        assert.ok(pages.some((href) => href?.includes("/concepts/long-running")), pages.join(", "));
      } finally {
        await browser.close();
      }
    });
  });
});
