import { after, before } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { denoKvResultStore } from "../../src/deno-kv/mod.ts";
import type { ResultStore } from "../../mod.ts";
import { describeResultStore } from "../helpers/result-store-conformance.ts";
import { describeSharedInstances } from "../helpers/instances.ts";

const deno = (globalThis as { Deno?: typeof Deno }).Deno;
const MISSING: string | false = typeof deno?.openKv === "function"
  ? false
  : 'Deno KV runs under Deno only (deno test --unstable-kv, or "unstable": ["kv"] in deno.json)';
if (MISSING) console.error(`deno-kv: skipped: ${MISSING}`);

let dir: string | undefined;
let kv: Deno.Kv | undefined;
let shared: ResultStore | undefined;

before(async () => {
  if (MISSING) return;
  dir = mkdtempSync(join(tmpdir(), "mcplite-kv-"));
  kv = await deno!.openKv(join(dir, "kv.sqlite3"));
  shared = denoKvResultStore(kv, { prefix: ["shared"] });
});

after(() => {
  kv?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describeResultStore(
  "deno kv",
  () => denoKvResultStore(kv!),
  { maxBytes: 60_000, skip: MISSING },
);

describeSharedInstances("deno kv", () => shared!, MISSING);
