/**
 * The release workflow cannot run here (no GitHub runner, no registry credentials), so CI checks what it
 * can: the file is a valid GitHub Actions workflow (action-validator, against the workflow's JSON
 * schema), and it publishes a version tag to both registries, each with provenance from the OIDC token,
 * and the site with the release's own conformance figures, and to the MCP Registry only a server the repository
 * declares (none: it is an SDK). The repository has a security policy that names
 * the release line package.json states and a private way to report.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { skipOutsideCi } from "./helpers/once-per-run.ts";
import { ROOT, run } from "./helpers/process.ts";

const WORKFLOW = ".github/workflows/release.yml";
const VALIDATOR = `${ROOT}node_modules/.bin/action-validator`;

describe("the release workflow", () => {
  it("is a valid GitHub Actions workflow", async (t) => {
    if (!existsSync(VALIDATOR)) return skipOutsideCi(t, "needs @action-validator/cli: npm ci installs it");
    const checked = await run(VALIDATOR, [WORKFLOW], 60_000);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  });

  it("publishes a version tag to JSR and npm, each with OIDC provenance", () => {
    const workflow = parse(readFileSync(ROOT + WORKFLOW, "utf8"));
    assert.deepEqual(workflow.on.push.tags, ["v*.*.*"]);
    const steps = (job: string) => workflow.jobs[job].steps.map((step: { run?: string }) => step.run ?? "").join("\n");
    for (const job of ["jsr", "npm"]) {
      assert.equal(workflow.jobs[job].permissions["id-token"], "write", `${job} needs the OIDC token`);
      assert.deepEqual(workflow.jobs[job].needs, "check");
    }
    assert.match(steps("jsr"), /deno publish --config jsr\.json$/m);
    assert.match(steps("npm"), /^npm publish --provenance/m);
    // npm refuses a prerelease without a dist-tag; one under latest would be what `npm i` installs.
    assert.match(steps("npm"), /\*-\*\) DIST_TAG=next/);
    assert.match(steps("npm"), /--tag "\$DIST_TAG"$/m);
    assert.match(steps("check"), /GITHUB_REF_NAME#v.*jsr\.json/);
  });

  // The MCP Registry lists servers (a server.json; for an npm package, its `mcpName`). This repository publishes an SDK,
  // a library and a client CLI, and declares no server, so its release publishes none. Should it declare one, the
  // registry comes after npm and JSR (it checks that the packages it names exist and name the server) and `mcplite
  // server-json --check` before `mcp-publisher publish` (a drifted server.json fails the job instead of listing stale).
  it("publishes to the MCP Registry only a server the repository declares, after npm and JSR", () => {
    const workflow = parse(readFileSync(ROOT + WORKFLOW, "utf8"));
    const { mcpName } = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
    const declared = mcpName !== undefined || existsSync(`${ROOT}server.json`);
    type Job = { needs?: string | string[]; permissions?: Record<string, string>; steps: { run?: string }[] };
    const runs = (job: Job) => job.steps.map((step) => step.run ?? "").join("\n");
    const publishing = Object.entries<Job>(workflow.jobs).filter(([, job]) =>
      /\bmcp-publisher publish\b/.test(runs(job))
    );
    if (!declared) {
      assert.deepEqual(publishing.map(([name]) => name), [], "no server.json nor mcpName: nothing to publish there");
      return;
    }
    assert.equal(publishing.length, 1, "one job publishes to the MCP Registry");
    const [[, job]] = publishing;
    assert.deepEqual([job.needs].flat().sort(), ["jsr", "npm"], "the registry after npm and JSR");
    assert.equal(job.permissions?.["id-token"], "write", "mcp-publisher login github-oidc needs the OIDC token");
    const at = (pattern: RegExp) => runs(job).search(pattern);
    const check = at(/server-json\b.*--check/);
    const login = at(/mcp-publisher login github-oidc/);
    const publish = at(/mcp-publisher publish/);
    assert.ok(check >= 0 && check < login && login < publish, "server-json --check, then login, then publish");
  });

  it("publishes the documentation site to GitHub Pages", () => {
    const workflow = parse(readFileSync(ROOT + WORKFLOW, "utf8"));
    const { docs, pages } = workflow.jobs;
    assert.equal(docs.needs, "check");
    const build = docs.steps.find((step: { run?: string }) => step.run === "npm run docs:build");
    assert.ok(build, "the docs job runs npm run docs:build");
    assert.match(build.env.DOCS_BASE, /github\.event\.repository\.name/, "the site is built under the Pages path");
    const upload = docs.steps.find((step: { uses?: string }) =>
      step.uses?.startsWith("actions/upload-pages-artifact@")
    );
    assert.equal(upload?.with.path, "docs/.vitepress/dist");
    // The conformance page's figures come from this release's own run, before the site is built.
    const runs = docs.steps.map((step: { run?: string }) => step.run ?? "");
    const conformance = runs.findIndex((run: string) => /node docs\/scripts\/conformance\.mjs/.test(run));
    assert.ok(conformance >= 0 && conformance < runs.indexOf("npm run docs:build"), "conformance, then the build");
    assert.match(runs[conformance], /^CONFORMANCE_RESULTS=(\S+) bash \.ci\/conformance\.sh$/m);
    assert.match(runs[conformance], /^CONFORMANCE_RESULTS=(\S+) bash \.ci\/conformance-client\.sh$/m);
    assert.match(runs[conformance], /--out docs\/public\/conformance\.json$/m);
    assert.equal(pages.needs, "docs");
    assert.deepEqual(pages.permissions, { pages: "write", "id-token": "write" });
    assert.equal(pages.environment.name, "github-pages");
    assert.ok(pages.steps.some((step: { uses?: string }) => step.uses?.startsWith("actions/deploy-pages@")));
  });
});

describe("the security policy", () => {
  it("names the release line package.json states, and a private way to report", () => {
    const policy = readFileSync(`${ROOT}SECURITY.md`, "utf8");
    const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
    const major = version.split(".")[0];
    assert.match(policy, new RegExp(`^\\| ${major}\\.x [^|]*\\| yes`, "m"), `SECURITY.md supports ${major}.x`);
    assert.match(policy, /private vulnerability reporting/);
    assert.match(policy, /Do not open a public issue/);
  });
});
