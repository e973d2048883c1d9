/**
 * `mcplite server-json <server module> [--name <reverse-DNS>] [--remote <url>]… [--dir <project>]
 * [--out <file>] [--no-packages] [--check | --workflow]`: writes the MCP Registry's `server.json` from the
 * module's server and the project's `package.json`/`jsr.json`/`deno.json`; with `--check` fails when the
 * file has drifted or the registry would refuse the npm package (its `mcpName`, in `package.json` and as
 * published); with `--workflow` also writes a GitHub Actions workflow that publishes it.
 *
 * @module
 */
import { serverOf } from "./dev/dev-messages.ts";
import { ExitCode, UsageError } from "./exit-errors.ts";
import { driftOf, formatServerJson, serverJson } from "./server-json-document.ts";
import { NPM_REGISTRY, publishedMcpName } from "./server-json-published.ts";
import { publishWorkflow, WORKFLOW_PATH } from "./server-json-workflow.ts";
import type { Terminal } from "./terminal.ts";
import { isObject } from "../internal/is-object.ts";
import { CARD_AT_ANY_HOST } from "../server/server-card.ts";

interface Fs {
  readFile(path: string, encoding: "utf8"): Promise<string>;
  writeFile(path: string, data: string): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<unknown>;
  access(path: string): Promise<void>;
}

/** What `server-json`'s command line says. */
interface ServerJsonArgs {
  module: string;
  name?: string;
  remotes: string[];
  dir: string;
  out?: string;
  check: boolean;
  workflow: boolean;
  noPackages: boolean;
}

/** Something a server module exports: a server's `fetch`, and its name and version. */
interface Served {
  fetch(request: Request, env?: unknown, ctx?: unknown): Promise<Response>;
  readonly name: string;
  readonly version: string;
}

const USAGE = "mcplite server-json <server module> [--name <io.github.you/server>] [--remote <url>]… " +
  "[--dir <project>] [--out <file>] [--no-packages] [--check | --workflow]";
const CARD_PATH = "/.well-known/mcp/server-card.json";
/** The `ctx` of the card's reads: any host (`CARD_AT_ANY_HOST`), and the `waitUntil` a `ctx` has. */
const ANY_HOST = { [CARD_AT_ANY_HOST]: true, waitUntil() {} };

/**
 * Runs `server-json`.
 *
 * @param terminal The terminal.
 * @param args The arguments after `server-json`.
 * @returns 0 when written or in step; 1 when `--check` finds the file drifted or missing, or an
 *   `mcpName` the registry would refuse; 2 for a bad command line, a module without a server, or a
 *   project without a name or version.
 */
export async function serverJsonCommand(terminal: Terminal, args: string[]): Promise<number> {
  const fs: Fs = await import("node:fs/promises");
  const { cwd, env } = await import("node:process");
  let parsed: ServerJsonArgs;
  let made: ReturnType<typeof serverJson>;
  let dir: URL;
  let jsrJson: Record<string, unknown> | undefined;
  try {
    parsed = parseServerJsonArgs(args);
    const base = new URL(`file://${cwd()}/`);
    dir = new URL(`${parsed.dir.replace(/\/*$/, "")}/`, base);
    const server = await loadServer(new URL(parsed.module, base));
    const card = await cardAt(server, "http://localhost");
    // A card's name that changes with the host it is read at was made up from the host: not a name to publish.
    if (card.name !== (await cardAt(server, "http://mcplite.invalid")).name) delete card.name;
    jsrJson = await readJson(fs, new URL("jsr.json", dir)) ?? await readJson(fs, new URL("deno.json", dir));
    const remoteCards = await Promise.all(parsed.remotes.map((remote) => remoteCard(server, remote)));
    made = serverJson({
      card,
      remoteCards,
      packageJson: await readJson(fs, new URL("package.json", dir)),
      jsrJson,
      name: parsed.name,
      noPackages: parsed.noPackages,
    });
    // --out is a path as typed, from the working directory; without it, server.json in the project.
    parsed.out = parsed.out === undefined ? new URL("server.json", dir).pathname : new URL(parsed.out, base).pathname;
  } catch (error) {
    await terminal.err(`mcplite: ${(error as Error).message}\n`);
    return ExitCode.Error;
  }
  for (const note of made.notes) await terminal.err(`mcplite: note: ${note}\n`);
  const text = formatServerJson(made.document);
  if (!parsed.check) {
    for (const issue of made.mcpNameIssues) await terminal.err(`mcplite: warning: ${issue}\n`);
    await fs.writeFile(parsed.out, text);
    await terminal.out(`Wrote ${parsed.out} (${made.document.name} ${made.document.version})\n`);
    if (parsed.workflow) {
      const jsr = typeof jsrJson?.name === "string" && !parsed.noPackages;
      await writeWorkflow(fs, terminal, dir, parsed, made.document, jsr, cwd());
    }
    return ExitCode.Ok;
  }
  const refusals = [...made.mcpNameIssues, ...await publishedRefusals(terminal, made.document, env)];
  const onDisk = await fs.readFile(parsed.out, "utf8").catch(() => undefined);
  if (onDisk === undefined) {
    await terminal.err(`mcplite: ${parsed.out} is missing; run mcplite server-json without --check to write it\n`);
    return ExitCode.ToolFailed;
  }
  let before: unknown;
  try {
    before = JSON.parse(onDisk);
  } catch {
    before = onDisk;
  }
  const drift = driftOf(before, made.document);
  for (const refusal of refusals) await terminal.err(`mcplite: ${refusal}\n`);
  if (drift.length === 0 && refusals.length === 0) {
    await terminal.out(`${parsed.out} is in step (${made.document.name} ${made.document.version})\n`);
    return ExitCode.Ok;
  }
  if (drift.length > 0) {
    await terminal.err(
      `mcplite: ${parsed.out} has drifted from the server and its package:\n${drift.map((l) => `  ${l}\n`).join("")}` +
        `Run mcplite server-json without --check to write it again.\n`,
    );
  }
  return ExitCode.ToolFailed;
}

/**
 * What the registry would refuse in the published npm package: an `mcpName` that is not the server's
 * name. The package is read from `npm_config_registry` (npm's own variable), else npm's registry; a
 * version not published yet, or a registry out of reach, is a note, not a failure.
 */
async function publishedRefusals(
  terminal: Terminal,
  document: Record<string, unknown>,
  env: Record<string, string | undefined>,
): Promise<string[]> {
  const npm = (document.packages as Record<string, unknown>[] | undefined)?.find((p) => p.registryType === "npm");
  if (npm === undefined) return [];
  const registry = env.npm_config_registry || env.NPM_CONFIG_REGISTRY || NPM_REGISTRY;
  const id = `${npm.identifier}@${npm.version}`;
  const published = await publishedMcpName(registry, String(npm.identifier), String(npm.version));
  if (published.kind === "missing") {
    await terminal.err(`mcplite: note: ${id} is not on ${registry} yet; its "mcpName" is checked once it is\n`);
    return [];
  }
  if (published.kind === "unreachable") {
    await terminal.err(`mcplite: note: ${registry} is out of reach (${published.reason}); ${id} not checked\n`);
    return [];
  }
  if (published.mcpName === document.name) return [];
  return [
    `${id} as published on ${registry} has ${
      published.mcpName === undefined ? 'no "mcpName"' : `"mcpName": ${JSON.stringify(published.mcpName)}`
    }, not the server's name ${JSON.stringify(document.name)}: the registry refuses it; publish a version ` +
    `whose package.json has "mcpName": ${JSON.stringify(document.name)}`,
  ];
}

/** Writes the publish workflow into the project (`--workflow`), its check step with this command's arguments. */
async function writeWorkflow(
  fs: Fs,
  terminal: Terminal,
  dir: URL,
  parsed: ServerJsonArgs,
  document: Record<string, unknown>,
  jsr: boolean,
  cwd: string,
): Promise<void> {
  const exists = (name: string) => fs.access(new URL(name, dir).pathname).then(() => true, () => false);
  const hasPackageJson = await exists("package.json");
  const runtime = !hasPackageJson && await exists("deno.json")
    ? "deno"
    : await exists("bun.lock") || await exists("bun.lockb")
    ? "bun"
    : "node";
  // The step runs in the project's directory: paths as seen from there.
  const fromProject = (path: string) => relativeTo(dir, new URL(path, new URL(`file://${cwd}/`)));
  const checkArgs = [
    fromProject(parsed.module),
    ...(parsed.name === undefined ? [] : ["--name", parsed.name]),
    ...parsed.remotes.flatMap((remote) => ["--remote", remote]),
    ...(parsed.noPackages ? ["--no-packages"] : []),
    ...(parsed.out === new URL("server.json", dir).pathname
      ? []
      : ["--out", relativeTo(dir, new URL(`file://${parsed.out}`))]),
  ];
  const yaml = publishWorkflow({
    runtime,
    npm: Array.isArray(document.packages) && document.packages.length > 0,
    jsr,
    lockfile: await exists("package-lock.json"),
    checkArgs,
  });
  const path = new URL(WORKFLOW_PATH, dir).pathname;
  await fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await fs.writeFile(path, yaml);
  await terminal.out(`Wrote ${path}: on a v* tag it publishes the package, then server.json with mcp-publisher\n`);
}

/** `to`'s path relative to the directory `from` (`./`-less; `../` where it is outside). */
function relativeTo(from: URL, to: URL): string {
  const a = from.pathname.split("/").filter(Boolean);
  const b = to.pathname.split("/").filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/");
}

/** Reads the command line. */
function parseServerJsonArgs(args: string[]): ServerJsonArgs {
  const parsed: ServerJsonArgs = {
    module: "",
    remotes: [],
    dir: ".",
    check: false,
    workflow: false,
    noPackages: false,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const value = () => {
      const given = inline ?? args[++i];
      if (given === undefined || given === "") throw new UsageError(`${flag} needs a value (${USAGE})`);
      return given;
    };
    if (flag === "--name") parsed.name = value();
    else if (flag === "--remote") parsed.remotes.push(checkedRemote(value()));
    else if (flag === "--dir") parsed.dir = value();
    else if (flag === "--out") parsed.out = value();
    else if (flag === "--check") parsed.check = true;
    else if (flag === "--workflow") parsed.workflow = true;
    else if (flag === "--no-packages") parsed.noPackages = true;
    else if (arg.startsWith("-")) throw new UsageError(`server-json: unknown option ${arg} (${USAGE})`);
    else if (parsed.module === "") parsed.module = arg;
    else throw new UsageError(`server-json: one server module only, not ${JSON.stringify(arg)}`);
  }
  if (parsed.module === "") throw new UsageError(`server-json needs the server's module (${USAGE})`);
  if (parsed.check && parsed.workflow) throw new UsageError(`server-json: --check or --workflow, not both`);
  return parsed;
}

function checkedRemote(url: string): string {
  if (!/^https?:\/\/[^\s/]+/.test(url)) {
    throw new UsageError(`--remote takes an http(s) URL, not ${JSON.stringify(url)}`);
  }
  return url;
}

/** Imports the module and finds its server as `mcplite dev` does (`serverOf`: `server`, else the default export). */
async function loadServer(url: URL): Promise<Served> {
  const found = serverOf(await import(url.href) as Record<string, unknown>);
  if (typeof found === "string") throw new Error(`${url.pathname}: ${found}`);
  if (typeof (found as { name?: unknown }).name !== "string") {
    throw new Error(`${url.pathname}: its server has no name: serve a createServer() server`);
  }
  return found as unknown as Served;
}

/**
 * The card the server serves at an origin (SEP-2127); for a server that serves none (`serverCard: false`,
 * the lite entry), its name and version.
 */
async function cardAt(server: Served, origin: string): Promise<Record<string, unknown>> {
  // Read in process at an origin the server may not list in `allowedHosts` (it is told the public one).
  const response = await server.fetch(new Request(origin + CARD_PATH), undefined, ANY_HOST);
  if (response.ok) return await response.json();
  await response.body?.cancel();
  return { name: server.name, version: server.version };
}

/**
 * The card read at a remote's origin, whose `remotes` then carry the public URLs; a URL with a path is
 * the endpoint itself, listed as it is (with the card's auth headers).
 */
async function remoteCard(server: Served, remote: string): Promise<Record<string, unknown>> {
  const url = new URL(remote);
  const card = await cardAt(server, url.origin);
  const listed = Array.isArray(card.remotes) ? card.remotes as Record<string, unknown>[] : [];
  if (url.pathname !== "/" || listed.length === 0) {
    const endpoint = remote.replace(/\/$/, "");
    return { remotes: [{ ...listed[0], type: "streamable-http", url: endpoint }] };
  }
  return card;
}

async function readJson(fs: Fs, url: URL): Promise<Record<string, unknown> | undefined> {
  const text = await fs.readFile(url.pathname, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const value = JSON.parse(text);
  return isObject(value) ? value : undefined;
}
