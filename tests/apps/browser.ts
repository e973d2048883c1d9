/**
 * Browser helpers for the MCP Apps tests: Debian's Chromium through `playwright-core` (skipped with a
 * message when absent, as the CORS test does), scripts bundled for the browser with `bun build`, and
 * a directory for screenshots (removed after the tests unless MCPLITE_SCREENSHOTS names one to keep them).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { type Browser, chromium, type Frame, type Page } from "playwright-core";
import { missingOutsideCi } from "../helpers/once-per-run.ts";
import { ROOT } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { readUntil } from "../helpers/wait.ts";

/** The Chromium binary. */
export const CHROMIUM: string = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Why the browser tests are skipped, or `false`. */
export const NO_BROWSER: string | false = missingOutsideCi(
  existsSync(CHROMIUM)
    ? false
    : `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`,
);

/** Launches headless Chromium with the flags the CORS test uses. */
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"], timeout: 15_000 });
}

/**
 * Bundles a script for the browser (`bun build --target=browser`), whichever runtime runs the test.
 *
 * @param entry The entry point, relative to the repository.
 * @returns The script.
 */
export function bundleForBrowser(entry: string): string {
  const bun = join(ROOT, "node_modules/.bin/bun");
  return execFileSync(bun, ["build", "--target=browser", "--minify", join(ROOT, entry)], {
    encoding: "utf8",
    maxBuffer: 32 * 1024 * 1024,
    timeout: 60_000,
  });
}

/**
 * A fresh directory for a suite's screenshots, removed after its tests (`scratchDir()`: call it in the suite's body
 * or a test, not in a `before` hook, where Bun runs the removal at once); `MCPLITE_SCREENSHOTS` names a folder that
 * keeps them instead, to look at.
 */
export function screenshotDir(): string {
  const kept = process.env.MCPLITE_SCREENSHOTS;
  if (kept === undefined) return scratchDir("mcplite-apps-screens-");
  mkdirSync(kept, { recursive: true });
  console.error(`apps: screenshots in ${kept}`);
  return kept;
}

/**
 * The view's frame (the page's first frame other than its own), once it holds `selector`: 15 s at most, failing with
 * what `told()` says (the host's log).
 */
export async function viewFrame(
  page: Page,
  selector: string,
  told: () => Promise<string> = () => Promise.resolve(""),
): Promise<Frame> {
  const holding = async () => {
    const frame = page.frames().find((f) => f !== page.mainFrame());
    return frame !== undefined && await frame.locator(selector).count().catch(() => 0) > 0 ? frame : undefined;
  };
  try {
    const what = `the view's frame holding ${selector}`;
    return (await readUntil(holding, (frame) => frame !== undefined, what, { timeoutMs: 15_000, everyMs: 100 }))!;
  } catch (error) {
    throw new Error(`${(error as Error).message} ${await told()}`);
  }
}
