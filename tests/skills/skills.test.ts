/**
 * Agent Skills (SEP-2640): skills defined in memory and read from a directory, served over MCP
 * (`skills/list`, `skills/get`, `resources/read`, `resources/directory/read`) and loaded by our client
 * with verification; what must be refused at definition, on the wire, and in the client.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { before, describe, it } from "node:test";
import { createServer, mcpBinding } from "../../mod.ts";
import { defineSkill, skillFromDirectory, skillsFromDirectory } from "../../src/skills/mod.ts";
import { assembleSkill } from "../../src/skills/define-skill.ts";
import { SKILLS_SERVED_BY } from "../../src/assembly/served-skills.ts";
import { createClient, SkillVerificationError } from "../../src/client/mod.ts";
import { modernRequest } from "../helpers/request.ts";

const EXAMPLES = fileURLToPath(new URL("../../examples/skills/", import.meta.url));
const SKILL_MD = "---\nname: greet\ndescription: Greets people politely\n---\nSay hello.\n";

async function rpc(
  server: { fetch(r: Request): Promise<Response> },
  method: string,
  params: Record<string, unknown> = {},
) {
  return await (await server.fetch(modernRequest(method, params))).json();
}

describe("defining skills", () => {
  it("computes each file's digest and size once, SKILL.md first as text/markdown", async () => {
    const skill = await defineSkill({
      "scripts/run.sh": "echo hi\n",
      "SKILL.md": SKILL_MD,
      "logo.png": new Uint8Array([137, 80, 0, 1]),
    });
    assert.deepEqual(skill.files.map((f) => [f.path, f.mimeType, f.text]), [
      ["SKILL.md", "text/markdown", true],
      ["logo.png", "image/png", false],
      ["scripts/run.sh", "text/x-shellscript", true],
    ]);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(SKILL_MD));
    assert.equal(
      skill.files[0].digest,
      "sha256:" + Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join(""),
    );
    assert.equal(skill.files[0].size, new TextEncoder().encode(SKILL_MD).byteLength);
  });

  it("refuses a skill without SKILL.md, a bad name, no description, a reserved metadata key, a path that leaves it", async () => {
    await assert.rejects(defineSkill({ "README.md": "x" }), /SKILL.md is missing/);
    await assert.rejects(defineSkill({ "SKILL.md": "---\nname: Bad_Name\ndescription: d\n---\n" }), /lowercase/);
    await assert.rejects(defineSkill({ "SKILL.md": "---\nname: ok\n---\n" }), /non-empty description/);
    await assert.rejects(defineSkill({ "SKILL.md": "no frontmatter" }), /YAML frontmatter/);
    await assert.rejects(
      defineSkill({ "SKILL.md": "---\nname: ok\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: 1\n---\n" }),
      /reserved/,
    );
    await assert.rejects(defineSkill({ "SKILL.md": SKILL_MD, "../etc/passwd": "x" }), /must stay inside the skill/);
  });

  it("reads a skill from its directory, whose name must equal the frontmatter name", async () => {
    const skill = await skillFromDirectory(join(EXAMPLES, "release-notes"));
    assert.deepEqual(skill.files.map((f) => f.path), ["SKILL.md", "references/STYLE.md"]);
    assert.deepEqual((await skillsFromDirectory(EXAMPLES)).map((s) => s.name), ["release-notes"]);
    const dir = mkdtempSync(join(tmpdir(), "skills-"));
    try {
      mkdirSync(join(dir, "wrong-name"));
      writeFileSync(join(dir, "wrong-name", "SKILL.md"), SKILL_MD);
      await assert.rejects(
        skillFromDirectory(join(dir, "wrong-name")),
        /skill wrong-name: the directory name must equal the frontmatter name "greet"/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("does not follow a symlink that points out of the skill, and serves a 10 MB file from disk", async () => {
    const dir = mkdtempSync(join(tmpdir(), "skills-"));
    try {
      const skillDir = join(dir, "greet");
      mkdirSync(skillDir);
      writeFileSync(join(skillDir, "SKILL.md"), SKILL_MD);
      writeFileSync(join(dir, "secret.txt"), "do not serve\n");
      symlinkSync(join(dir, "secret.txt"), join(skillDir, "secret.txt"));
      const big = new Uint8Array(10 * 1024 * 1024).fill(7);
      writeFileSync(join(skillDir, "big.bin"), big);
      const skill = await skillFromDirectory(skillDir);
      assert.deepEqual(skill.files.map((f) => f.path), ["SKILL.md", "big.bin"]);
      const server = createServer({ name: "s", version: "1" }).skill(skill);
      const read = await rpc(server, "resources/read", { uri: "skill://greet/big.bin" });
      const blob = read.result.contents[0].blob as string;
      assert.equal(
        Math.floor(blob.length * 3 / 4) - (blob.endsWith("==") ? 2 : blob.endsWith("=") ? 1 : 0),
        big.byteLength,
      );
      const client = createClient(server, { transport: "mcp" });
      const loaded = await client.skills.load((await client.skills.list())[0]);
      assert.equal((await loaded.read("big.bin")).byteLength, big.byteLength);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("serving skills over MCP", () => {
  let server: ReturnType<typeof createServer>;
  before(async () => {
    server = createServer({ name: "skills", version: "1.0.0", bindings: [mcpBinding({ directoryRead: true })] })
      .skill(await skillFromDirectory(join(EXAMPLES, "release-notes")))
      .skill(await defineSkill({ "SKILL.md": SKILL_MD, "data/words.txt": "hello\n" }));
  });

  it("declares the extension beside resources, lists and gets entries with their manifests", async () => {
    const discovered = (await rpc(server, "server/discover")).result;
    assert.deepEqual(discovered.capabilities.extensions["io.modelcontextprotocol/skills"], { directoryRead: true });
    assert.ok(discovered.capabilities.resources);
    const list = (await rpc(server, "skills/list")).result;
    assert.deepEqual(list.skills.map((s: { uri: string }) => s.uri), [
      "skill://release-notes/SKILL.md",
      "skill://greet/SKILL.md",
    ]);
    assert.equal(typeof list.ttlMs, "number");
    const got = (await rpc(server, "skills/get", { uri: "skill://greet/SKILL.md" })).result;
    assert.deepEqual(got.skill.frontmatter, { name: "greet", description: "Greets people politely" });
    assert.equal(got.skill.resources.length, 2);
    assert.equal(got.nextCursor, undefined);
    assert.equal((await rpc(server, "skills/get", { uri: "skill://nope/SKILL.md" })).error.code, -32602);
  });

  it("serves the files by resources/read, and refuses URIs outside any skill", async () => {
    const read = (await rpc(server, "resources/read", { uri: "skill://greet/SKILL.md" })).result;
    assert.equal(read.contents[0].mimeType, "text/markdown");
    assert.equal(read.contents[0].text, SKILL_MD);
    for (const uri of ["skill://greet/../../etc/passwd", "skill://greet/%2e%2e/x", "skill://greet/nope.md"]) {
      assert.equal((await rpc(server, "resources/read", { uri })).error.code, -32602, uri);
    }
  });

  it("lists a skill directory's children, subdirectories as inode/directory", async () => {
    const dir = (await rpc(server, "resources/directory/read", { uri: "skill://greet/" })).result;
    assert.deepEqual(dir.resources.map((r: { uri: string; mimeType: string }) => [r.uri, r.mimeType]), [
      ["skill://greet/SKILL.md", "text/markdown"],
      ["skill://greet/data/", "inode/directory"],
    ]);
    assert.equal((await rpc(server, "resources/directory/read", { uri: "skill://greet/SKILL.md" })).error.code, -32602);
  });
});

describe("loading skills in the client", () => {
  it("loads a skill lazily: SKILL.md verified now, other files only when read", async () => {
    const server = createServer({ name: "s", version: "1" }).skill(
      await skillFromDirectory(join(EXAMPLES, "release-notes")),
    );
    const reads: string[] = [];
    const client = createClient({
      fetch: async (request: Request) => {
        const body = await request.clone().json();
        if (body.method === "resources/read") reads.push(body.params.uri);
        return await server.fetch(request);
      },
    }, { transport: "mcp" });
    const [entry] = await client.skills.list();
    assert.deepEqual(reads, []); // listing fetches nothing
    const skill = await client.skills.load(entry);
    assert.equal(skill.name, "release-notes");
    // The instructions are the body; the frontmatter comes as data, the whole file as markdown.
    assert.match(skill.instructions, /^# Release notes\n/);
    assert.doesNotMatch(skill.instructions, /^---|description:/);
    assert.equal(skill.frontmatter.license, "MIT");
    assert.deepEqual(skill.frontmatter.metadata, { version: "1.0" });
    assert.match(skill.markdown, /^---\nname: release-notes\n/);
    assert.ok(skill.markdown.endsWith(skill.instructions));
    assert.deepEqual(reads, ["skill://release-notes/SKILL.md"]);
    assert.match(await skill.readText("references/STYLE.md"), /One line per change/);
    assert.deepEqual(reads, ["skill://release-notes/SKILL.md", "skill://release-notes/references/STYLE.md"]);
    await assert.rejects(skill.read("../../etc/passwd"), /no file/);
  });

  it("refuses a file whose digest or size differs from the entry, and a SKILL.md whose frontmatter differs", async () => {
    let skillMd = new TextEncoder().encode(SKILL_MD);
    const other = new TextEncoder().encode("original\n");
    const skill = await assembleSkill(
      [
        { path: "SKILL.md", size: skillMd.byteLength, read: () => Promise.resolve(skillMd) },
        { path: "notes.txt", size: other.byteLength, read: () => Promise.resolve(other) },
      ],
      undefined,
      SKILLS_SERVED_BY,
    );
    const server = createServer({ name: "s", version: "1" }).skill(skill);
    const client = createClient(server, { transport: "mcp" });
    const [entry] = await client.skills.list();
    other.set(new TextEncoder().encode("tampered"), 0); // same size, other bytes
    const loaded = await client.skills.load(entry);
    await assert.rejects(
      loaded.read("notes.txt"),
      (error: Error) => error instanceof SkillVerificationError && /digest/.test(error.message),
    );
    skillMd = new TextEncoder().encode(SKILL_MD + "more"); // a longer SKILL.md
    await assert.rejects(client.skills.load(entry), /bytes where the entry lists/);
    skillMd = new TextEncoder().encode(SKILL_MD.replace("politely", "rudely!!")); // same size, other frontmatter
    await assert.rejects(client.skills.load(entry), /digest|frontmatter/);
    const forged = { ...entry, frontmatter: { name: "greet", description: "something else" } };
    skillMd = new TextEncoder().encode(SKILL_MD);
    await assert.rejects(client.skills.load(forged), /frontmatter of SKILL.md differs/);
  });
});
