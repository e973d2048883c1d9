/**
 * The README's Node route, as a newcomer follows it on Node 22: the Install block's npm commands run in
 * an empty folder (the package from the packed tarball, as the registry would give it), the Quick
 * start's server.ts saved there, and `node server.ts` serving it with nothing on stderr but the line
 * saying where it listens — no `MODULE_TYPELESS_PACKAGE_JSON` warning ("type": "module" is set).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { tsBlocks } from "./helpers/markdown.ts";
import { node22, NODE22_MISSING } from "./helpers/node22.ts";
import { offline, packOnce, withBin } from "./helpers/npm-pack.ts";
import { ONCE_PER_RUN, skipOutsideCi } from "./helpers/once-per-run.ts";
import { ROOT, run } from "./helpers/process.ts";
import { scratchDir } from "./helpers/scratch-dir.ts";

const readme = readFileSync(`${ROOT}README.md`, "utf8");
const dir = scratchDir("mcplite-readme-node-");

/** The Install section's npm commands, for Node: each line of its sh block that starts with `npm`. */
function nodeInstall(): string[] {
  const install = readme.slice(readme.indexOf("## Install"));
  const block = /```sh\n([\s\S]*?)```/.exec(install)?.[1] ?? "";
  return block.split("\n").filter((line) => line.startsWith("npm ")).map((line) => line.replace(/\s+#.*$/, ""));
}

describe("the README's Node route", () => {
  it("makes an ES module project before it installs", () => {
    const commands = nodeInstall();
    assert.ok(commands.some((line) => /npm pkg set type=module/.test(line)), commands.join("\n"));
    assert.ok(commands.some((line) => /^npm i @mcplite\/sdk valibot$/.test(line)), commands.join("\n"));
  });

  it(
    "runs the Quick start with node server.ts, printing no warning",
    { timeout: 300_000, skip: ONCE_PER_RUN },
    async (t) => {
      const [packed, node] = await Promise.all([packOnce(), node22()]);
      if (typeof packed === "string") return skipOutsideCi(t, packed);
      if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
      const env = { ...withBin(dirname(node)), npm_config_audit: "false", npm_config_fund: "false" };
      for (const command of nodeInstall()) {
        const line: string = command.replace("@mcplite/sdk", packed.tarball).replace(
          /^npm i /,
          "npm i --prefer-offline ",
        );
        const done = await run("sh", ["-c", line], 180_000, dir, env);
        if (offline(done)) return skipOutsideCi(t, "needs the npm registry (valibot, the package's dependencies)");
        assert.equal(done.code, 0, `${line}\n${done.stderr}`);
      }
      const server = tsBlocks(readme).find((block) => block.file === "server.ts");
      assert.ok(server, "the Quick start names its server.ts");
      writeFileSync(join(dir, "server.ts"), server.code + "\n");
      const child = spawn(node, ["server.ts"], { cwd: dir, env: { ...env, PORT: "0" } });
      let stderr = "";
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no "Listening on" in 30 s:\n${stderr}`)), 30_000);
          child.stderr.on("data", (chunk) => {
            stderr += String(chunk);
            if (!/Listening on http:\/\/\S+\n/.test(stderr)) return;
            clearTimeout(timer);
            resolve();
          });
          child.once("exit", (code) => {
            clearTimeout(timer);
            reject(new Error(`node server.ts exited with ${code}:\n${stderr}`));
          });
        });
      } finally {
        child.kill();
      }
      assert.match(stderr, /^Listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    },
  );
});
