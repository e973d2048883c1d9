/**
 * The package's declarations name no DOM global: a project that installed the tarball (tests/helpers/npm-pack.ts)
 * type-checks every entry point package.json exports, and passes a Web Crypto key of its own to the client's
 * DPoP and `private_key_jwt` options, under Node's own type setup — `lib: ["es2023"]` (no `dom`),
 * `skipLibCheck: false`, nodenext — with `@types/node` 20, 22 and 24 (the devDependencies `types-node-20`,
 * `types-node-22`, `types-node-24`, each the project's only type root). No error may be in the package's own
 * declarations; a dependency's (`@connectrpc/connect` names `HeadersInit`) is fixed by the TypeScript notes' one-line
 * declaration, and with it the project has no error at all. One tsc run per version: with that line, which
 * declares `HeadersInit` alone, and no declaration of ours naming `HeadersInit`, no error without it is ours
 * either (a name the line does not declare fails with it as without it).
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { scratchDir } from "./helpers/scratch-dir.ts";
import { consumerProject } from "./helpers/npm-pack.ts";
import { everyEntryPoint, tsc, typescriptNotesShim } from "./helpers/consumer-types.ts";
import { ONCE_PER_RUN, skipOutsideCi } from "./helpers/once-per-run.ts";
import { ROOT, run } from "./helpers/process.ts";

const LONG = { timeout: 300_000 };
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));

/** A consumer's own keys in the options that take Web Crypto keys (DPoP, `private_key_jwt`). */
const KEYS = `import { createClient } from "@mcplite/sdk/client";
import { clientCredentials, oauth } from "@mcplite/sdk/client/auth";
import type { WebCryptoKey, WebCryptoKeyPair } from "@mcplite/sdk/client/auth";

const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
const keyPair: WebCryptoKeyPair = pair;
const privateKey: WebCryptoKey = pair.privateKey;
createClient("http://127.0.0.1:8000/mcp", {
  auth: oauth({ redirectUri: "http://127.0.0.1:8976/callback", onAuthorizationUrl: () => "code", dpop: { keyPair } }),
});
clientCredentials({ clientId: "job", privateKey });
clientCredentials({ clientId: "job", privateKey: { key: pair.privateKey, kid: "k1" } });
`;

/** Node's own setup with one `@types/node` version as the only type root. */
function tsconfig(version: number, files: string[]) {
  return {
    compilerOptions: {
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2023",
      lib: ["es2023"],
      types: ["node"],
      typeRoots: [`./types-${version}`],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    },
    files,
  };
}

const dir = scratchDir("mcplite-types-node-");
let installed: Promise<string | { app: string }> | undefined;

/** A project that installed the tarball and valibot, with a type root per `@types/node` version; a string says why not. */
function project(): Promise<string | { app: string }> {
  installed ??= (async () => {
    const app = join(dir, "app");
    const missing = await consumerProject(app);
    if (missing !== undefined) return missing;
    writeFileSync(join(app, "entry-points.ts"), everyEntryPoint());
    writeFileSync(join(app, "keys.ts"), KEYS);
    writeFileSync(join(app, "dom-shim.d.ts"), `${typescriptNotesShim()}\n`);
    for (const version of [20, 22, 24]) {
      mkdirSync(join(app, `types-${version}`));
      symlinkSync(`${ROOT}node_modules/types-node-${version}`, join(app, `types-${version}`, "node"), "dir");
    }
    return { app };
  })();
  return installed;
}

/** tsc's diagnostics for the project under `config`. */
async function check(app: string, config: object): Promise<string[]> {
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify(config));
  return await tsc(app, ".");
}

describe("the package's declarations under Node's types, without the DOM library", { skip: ONCE_PER_RUN }, () => {
  it(
    "names HeadersInit, the one name the TypeScript notes' line declares, in none of the declarations tsc reads of ours",
    {
      ...LONG,
    },
    async (t) => {
      const ready = await project();
      if (typeof ready === "string") return skipOutsideCi(t, ready);
      assert.match(
        typescriptNotesShim(),
        /^type HeadersInit = [^;]*;$/,
        "the TypeScript notes' line declares HeadersInit and nothing else",
      );
      writeFileSync(join(ready.app, "tsconfig.json"), JSON.stringify(tsconfig(24, ["entry-points.ts", "keys.ts"])));
      // The files the consumer's program holds (resolved, not checked): the package's declarations it reaches.
      const listed = await run(
        "node",
        [`${ROOT}node_modules/typescript/bin/tsc`, "--listFilesOnly"],
        120_000,
        ready.app,
      );
      assert.equal(listed.code, 0, listed.stdout + listed.stderr);
      const ours = listed.stdout.split("\n").filter((file) => file.includes(`/node_modules/${pkg.name}/`));
      assert.ok(ours.some((file) => file.endsWith("/mod.d.ts")), listed.stdout);
      const naming = ours.filter((file) =>
        /\bHeadersInit\b/.test(readFileSync(file.trim(), "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, ""))
      );
      assert.deepEqual(naming, []);
    },
  );

  for (const version of [20, 22, 24]) {
    it(`type-check with @types/node ${version} and the TypeScript notes' line: no error at all`, LONG, async (t) => {
      const ready = await project();
      if (typeof ready === "string") return skipOutsideCi(t, ready);
      const installedVersion = JSON.parse(
        readFileSync(join(ready.app, `types-${version}`, "node", "package.json"), "utf8"),
      ).version;
      assert.match(installedVersion, new RegExp(`^${version}\\.`));
      assert.deepEqual(await check(ready.app, tsconfig(version, ["entry-points.ts", "keys.ts", "dom-shim.d.ts"])), []);
    });
  }
});
