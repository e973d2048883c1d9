/**
 * Reading the command line: `mcplite <command> <target> [tool] [options]`, where the target is a URL or,
 * after `--`, the command that starts a stdio server.
 *
 * @module
 */
import { ENCODINGS, SEVERITIES, type Severity, type TokenEncoding } from "../quality/check-report.ts";
import { UsageError } from "./exit-errors.ts";

/** The commands the CLI knows. */
export const COMMANDS: readonly string[] = [
  "inspect",
  "list",
  "call",
  "app",
  "skills",
  "types",
  "events",
  "check",
  "help",
];

/** The wires a URL target may be forced to. */
export type Wire = "auto" | "mcp-lite" | "mcp" | "webtools";

/** A stdio server to start: the words after `--`. */
export interface StdioCommand {
  /** The program. */
  command: string;
  /** Its arguments. */
  args: string[];
}

/** The command line, read. */
export interface CliArgs {
  /** `inspect`, `list`, `call`, `app`, `skills`, `types`, `events`, `check` or `help`. */
  command: string;
  /** The server URL, for an HTTP target. */
  url?: string;
  /** The server command, for a stdio target. */
  stdio?: StdioCommand;
  /** The tool to call. */
  tool?: string;
  /** `--args '{…}'`: the arguments as one JSON object. */
  argsJson?: string;
  /** `--arg key=value`, in order. */
  argPairs: string[];
  /** `--json`: machine-readable output. */
  json: boolean;
  /** `--header "Name: value"`, in order. */
  headers: [string, string][];
  /** `--wire`: the wire of a URL target (default `auto`). */
  wire: Wire;
  /** `--timeout <seconds>` as ms: the idle timeout of each request (0: none). */
  timeoutMs?: number;
  /** `events tail <url> [event…]`: the events to tail (none named: every one the server lists). */
  events?: string[];
  /** `--mode <webhook|push|poll>`: how `events tail` receives them (SEP-3415's modes; default webhook). */
  mode?: EventsMode;
  /** `skills … get <name>`: the skill to fetch. */
  skill?: string;
  /** `--out <dir>`: where `skills … get` writes the skill's files; `--out <file>`: where `types` writes. */
  out?: string;
  /** `--check`: `types` compares the `--out` file with the server's tools instead of writing it. */
  check: boolean;
  /** `--login`: authorize with OAuth when the server asks (401). */
  login: boolean;
  /** `--dpop`: with `--login`, DPoP-bound tokens (RFC 9449), the key kept in the token file. */
  dpop: boolean;
  /** `--client-id <id>`: a pre-registered OAuth client (else dynamic registration). */
  clientId?: string;
  /** `--tokens <file>`: where `--login` keeps tokens (default `$MCPLITE_TOKENS` or `~/.config/mcplite/tokens.json`). */
  tokens?: string;
  /** `--redirect-port <port>`: the port of `--login`'s redirect listener (default: a free one). */
  redirectPort?: number;
  /** `--port <port>`: the port of `app`'s preview page, or of `events tail`'s receiver (default: a free one). */
  port?: number;
  /** `--resource key=path`, in order: files for a tool that asks for a resource (`request-for-more-resource`). */
  resourcePairs: string[];
  /** `check --max-tokens <n>`: the most tokens the tool list may cost in any format. */
  maxTokens?: number;
  /** `check --fail-on <severity>`: the least severity that fails the check (default `error`). */
  failOn?: Severity;
  /** `check --encoding <name>`: the tokenizer's encoding (default `o200k_base`). */
  encoding?: TokenEncoding;
  /** `check --cases <file>`: selection cases, a JSON array of `{ prompt, expect, arguments?, forbid? }`. */
  cases?: string;
  /** `check --call <tool>[=<json arguments>]`, in order: tools to call, to see whether they return structured content. */
  calls: string[];
  /** `check --ignore <rule>[:<tool>]`, in order: findings to leave out. */
  ignore: string[];
  /** `check <file>.json`: a tool list to check, read from a file (a `tools/list` result, or its `tools` array). */
  toolsFile?: string;
}

const WIRES: readonly Wire[] = ["auto", "mcp-lite", "mcp", "webtools"];

/** How `events tail` receives events: a webhook to a local receiver, a push stream, or polling (SEP-3415's modes). */
export type EventsMode = "webhook" | "push" | "poll";
const MODES: readonly EventsMode[] = ["webhook", "push", "poll"];

/** Flags without a value: each sets its field to `true`. */
const SWITCHES = { "--json": "json", "--login": "login", "--dpop": "dpop", "--check": "check" } as const;
/** Options whose value is kept as given (the last one wins). */
const TEXT_OPTIONS = {
  "--args": "argsJson",
  "--out": "out",
  "--client-id": "clientId",
  "--tokens": "tokens",
  "--cases": "cases",
} as const;
/** Options that may repeat: their values are kept in order. */
const LIST_OPTIONS = {
  "--arg": "argPairs",
  "--resource": "resourcePairs",
  "--call": "calls",
  "--ignore": "ignore",
} as const;
/** Options whose value is a TCP port. */
const PORT_OPTIONS = { "--redirect-port": "redirectPort", "--port": "port" } as const;

/**
 * Reads the command line.
 *
 * @param argv The arguments, without the runtime and script.
 * @returns What they ask for (`command: "help"` for `--help`, `help` or nothing).
 * @throws {UsageError} For an unknown command or option, or a missing value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseArgs } from "./args.ts";
 * const args = parseArgs(["call", "http://localhost:8000", "add", "--arg", "a=1", "--json"]);
 * assert.equal(args.tool, "add");
 * assert.deepEqual(args.argPairs, ["a=1"]);
 * assert.deepEqual(parseArgs(["list", "--", "deno", "run", "-A", "server.ts"]).stdio, {
 *   command: "deno",
 *   args: ["run", "-A", "server.ts"],
 * });
 * ```
 */
export function parseArgs(argv: string[]): CliArgs {
  const dash = argv.indexOf("--");
  const words = dash < 0 ? argv : argv.slice(0, dash);
  const result: CliArgs = {
    command: "help",
    argPairs: [],
    json: false,
    headers: [],
    wire: "auto",
    login: false,
    dpop: false,
    check: false,
    resourcePairs: [],
    calls: [],
    ignore: [],
  };
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const eq = word.startsWith("--") ? word.indexOf("=") : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    const value = (): string => {
      if (eq > 0) return word.slice(eq + 1);
      if (i + 1 >= words.length) throw new UsageError(`${name} needs a value`);
      return words[++i];
    };
    if (setsField(result, name, value)) continue;
    switch (name) {
      case "-h":
      case "--help":
        help = true;
        break;
      case "-H":
      case "--header":
        result.headers.push(headerOf(value()));
        break;
      case "--wire": {
        const wire = value() as Wire;
        if (!WIRES.includes(wire)) throw new UsageError(`--wire must be one of ${WIRES.join(", ")}`);
        result.wire = wire;
        break;
      }
      case "--mode": {
        const mode = value() as EventsMode;
        if (!MODES.includes(mode)) throw new UsageError(`--mode must be one of ${MODES.join(", ")}`);
        result.mode = mode;
        break;
      }
      case "--fail-on": {
        const severity = value() as Severity;
        if (!SEVERITIES.includes(severity)) throw new UsageError(`--fail-on takes ${SEVERITIES.join(", ")}`);
        result.failOn = severity;
        break;
      }
      case "--encoding": {
        const encoding = value() as TokenEncoding;
        if (!ENCODINGS.includes(encoding)) throw new UsageError(`--encoding takes ${ENCODINGS.join(" or ")}`);
        result.encoding = encoding;
        break;
      }
      case "--max-tokens": {
        const raw = value();
        if (!/^[1-9]\d*$/.test(raw)) {
          throw new UsageError(`--max-tokens takes a positive whole number, not ${JSON.stringify(raw)}`);
        }
        result.maxTokens = Number(raw);
        break;
      }
      case "--timeout": {
        const raw = value();
        const seconds = Number(raw);
        if (raw.trim() === "" || !Number.isFinite(seconds) || seconds < 0) {
          throw new UsageError(`--timeout takes seconds (0 for none), not ${JSON.stringify(raw)}`);
        }
        result.timeoutMs = seconds * 1000;
        break;
      }
      default:
        if (word.startsWith("-") && word !== "-") throw new UsageError(`unknown option ${name}`);
        positionals.push(word);
    }
  }
  if (help || positionals.length === 0) return result;
  if (result.redirectPort !== undefined && !result.login) throw new UsageError("--redirect-port goes with --login");
  if (result.dpop && !result.login) throw new UsageError("--dpop goes with --login");
  const [command, ...rest] = positionals;
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  result.command = command;
  if (command === "help") return result;
  if (command === "events" && rest.shift() !== "tail") throw new UsageError("events takes tail: events tail <url>");
  if (dash >= 0) {
    const [program, ...programArgs] = argv.slice(dash + 1);
    if (program === undefined) throw new UsageError("-- must be followed by the command that starts the server");
    result.stdio = { command: program, args: programArgs };
  } else {
    result.url = rest.shift();
    if (result.url === undefined) throw new UsageError(`${command} needs a target: a URL, or -- <command> <args…>`);
  }
  if (result.port !== undefined && command !== "app" && command !== "events") {
    throw new UsageError("--port goes with app or events tail");
  }
  // `check tools.json`: a list saved from any server (a `tools/list` result), checked with no server at all.
  if (command === "check" && /\.json$/i.test(result.url ?? "") && !/^[a-z][a-z0-9+.-]*:/i.test(result.url!)) {
    [result.toolsFile, result.url] = [result.url, undefined];
    if (result.calls.length > 0) throw new UsageError("--call needs a server to call: a URL, or -- <command>");
  }
  if (command === "events") result.events = rest.splice(0);
  if (result.mode !== undefined && command !== "events") throw new UsageError("--mode goes with events tail");
  if (result.mode !== undefined && result.mode !== "webhook" && result.port !== undefined) {
    throw new UsageError("--port goes with --mode webhook: push and poll start no receiver");
  }
  if (result.check && command !== "types") throw new UsageError("--check goes with types");
  const checkOnly = [
    ["--max-tokens", result.maxTokens],
    ["--fail-on", result.failOn],
    ["--encoding", result.encoding],
    ["--cases", result.cases],
    ["--call", result.calls[0]],
    ["--ignore", result.ignore[0]],
  ] as const;
  const misplaced = checkOnly.find(([, given]) => given !== undefined && command !== "check");
  if (misplaced !== undefined) throw new UsageError(`${misplaced[0]} goes with check`);
  if (command === "call" || command === "app") {
    result.tool = rest.shift();
    if (result.tool === undefined) throw new UsageError(`${command} needs a tool name`);
  }
  if (command === "skills" && rest[0] === "get") {
    rest.shift();
    result.skill = rest.shift();
    if (result.skill === undefined) throw new UsageError("skills get needs a skill name");
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  return result;
}

/**
 * Reads an option that only sets a field (the four tables above); the others are read one by one.
 *
 * @returns `false` when `name` is none of them.
 */
function setsField(result: CliArgs, name: string, value: () => string): boolean {
  if (isKey(SWITCHES, name)) result[SWITCHES[name]] = true;
  else if (isKey(TEXT_OPTIONS, name)) result[TEXT_OPTIONS[name]] = value();
  else if (isKey(LIST_OPTIONS, name)) result[LIST_OPTIONS[name]].push(value());
  else if (isKey(PORT_OPTIONS, name)) result[PORT_OPTIONS[name]] = portOf(name, value());
  else return false;
  return true;
}

/** Whether `key` is one of the table's own keys (not one it inherits, like `toString`). */
function isKey<T extends object>(table: T, key: string): key is Extract<keyof T, string> {
  return Object.hasOwn(table, key);
}

function portOf(option: string, raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new UsageError(`${option} takes a port from 1 to 65535, not ${JSON.stringify(raw)}`);
  }
  return port;
}

function headerOf(raw: string): [string, string] {
  const colon = raw.indexOf(":");
  if (colon <= 0) throw new UsageError(`--header takes "Name: value", not ${JSON.stringify(raw)}`);
  return [raw.slice(0, colon).trim(), raw.slice(colon + 1).trim()];
}
