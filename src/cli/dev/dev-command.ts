/**
 * `mcplite dev <server module> [--port N] [--host ADDRESS]`: serves the module's server on the port (127.0.0.1
 * unless `--host` names another interface; never `$HOSTNAME`), restarts it on each change to the module or a local
 * file it imports, prints the endpoints, and serves a dev page (`/_dev`). The dev server owns the port and forwards
 * to a child, so a restart never frees the port nor drops an open page; WebSockets are relayed (closed with 1012 at
 * a restart), and `subscriptions/listen` streams stay open across restarts, told which lists changed.
 *
 * @module
 */
import { serve } from "../../server/serve.ts";
import { isLoopbackAddress } from "../../internal/loopback.ts";
import { errorLine, ExitCode } from "../exit-errors.ts";
import type { Terminal } from "../terminal.ts";
import { DEV_PAGE_PATH, devApi } from "./dev-api.ts";
import { type DevEndpoint, endpointLines, probeEndpoints } from "./dev-endpoints.ts";
import { relativeTo } from "./dev-load-error.ts";
import { devHandler } from "./dev-proxy.ts";
import { type DevState, DevSupervisor } from "./dev-supervisor.ts";
import { watchGraph } from "./dev-watch.ts";
import { DevSockets, SERVICE_RESTART } from "./dev-websocket.ts";

/**
 * The SDK's own files (a checkout's, when a module imports it by path): a library, like a package,
 * not watched; the child waiting for the next restart has them loaded already.
 */
const SDK_ROOT = decodeURIComponent(new URL("../../../", import.meta.url).pathname);
const isSdk = (file: string) => file.startsWith(`${SDK_ROOT}src/`) || /^mod\.[jt]s$/.test(file.slice(SDK_ROOT.length));

const USAGE = "usage: mcplite dev <server module> [--port <port>] [--host <address>]";
/**
 * Where the dev server listens unless `--host` says: loopback, whatever `HOSTNAME` says (Docker and
 * Kubernetes set it to the container's name, which resolves to an address the network reaches).
 */
const DEV_HOST = "127.0.0.1";

const g = globalThis as {
  Deno?: { cwd(): string; execPath(): string };
  process?: { cwd(): string; execPath: string };
};

/** The command that runs the child entry on this runtime (Deno needs its permissions named). */
function childCommand(): { command: string; args: string[] } {
  const ext = import.meta.url.endsWith(".ts") ? "ts" : "js"; // the npm package runs compiled files
  const entry = new URL(`./dev-child.${ext}`, import.meta.url);
  if (g.Deno) return { command: g.Deno.execPath(), args: ["run", "-A", "--unstable-no-legacy-abort", entry.href] };
  return { command: g.process!.execPath, args: [decodeURIComponent(entry.pathname)] };
}

/**
 * Runs `mcplite dev`.
 *
 * @param terminal The terminal.
 * @param argv The words after `dev`.
 * @returns The exit code: 0 after Ctrl-C, 2 for a usage error or a port in use.
 */
export async function devCommand(terminal: Terminal, argv: string[]): Promise<number> {
  let port: number | undefined;
  let hostname = DEV_HOST;
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const equals = argv[i].indexOf("=");
    const [name, inline] = /^--(port|host)=/.test(argv[i])
      ? [argv[i].slice(0, equals), argv[i].slice(equals + 1)]
      : [argv[i], undefined];
    if (name === "--help" || name === "-h") return (await terminal.out(`${USAGE}\n`), ExitCode.Ok);
    if (name === "--port") {
      const raw = inline ?? argv[++i] ?? "";
      port = Number(raw);
      if (!/^\d+$/.test(raw) || port > 65535) {
        return await usage(terminal, `--port takes a port, not ${JSON.stringify(raw)}`);
      }
    } else if (name === "--host") {
      hostname = (inline ?? argv[++i] ?? "").replace(/^\[(.*)\]$/, "$1");
      if (!/^[\w.:-]+$/.test(hostname)) {
        return await usage(terminal, `--host takes an address, not ${JSON.stringify(hostname)}`);
      }
    } else if (name.startsWith("-")) return await usage(terminal, `unknown option ${name}`);
    else positionals.push(name);
  }
  if (positionals.length !== 1) return await usage(terminal, "dev needs one server module");
  const cwd = g.Deno ? g.Deno.cwd() : g.process!.cwd();
  const file = decodeURIComponent(new URL(positionals[0], `file://${cwd}/`).pathname);
  const { stat } = await import("node:fs/promises");
  if (!(await stat(file).catch(() => undefined))?.isFile()) return await usage(terminal, `no file ${positionals[0]}`);
  const say = (line: string) => void terminal.err(`mcplite dev: ${line}\n`);

  let origin = "";
  let endpoints: readonly DevEndpoint[] = [];
  let printed = "";
  // Another interface than loopback: peers off this machine may use the dev page and run its tools.
  const open = hostname !== "localhost" && !isLoopbackAddress(hostname);
  const api = devApi({ state: () => supervisor.state, endpoints: () => endpoints, warm: () => supervisor.warm, open });
  let reported = Promise.resolve();
  const report = async (state: DevState) => {
    if (state.phase === "ready") {
      endpoints = await probeEndpoints(state.url, state.basePath);
      const lines = endpointLines(origin, endpoints, DEV_PAGE_PATH);
      if (lines !== printed) await terminal.err(`mcplite dev: serving ${positionals[0]}\n${lines}`);
      printed = lines;
      say(`ready in ${state.startMs} ms`);
    } else if (state.phase === "failed") {
      const { message, location, detail } = state.failure;
      say(`${location ? `${relativeTo(location, cwd)}: ` : ""}${message}`);
      if (detail && detail !== message) await terminal.err(`${detail.trimEnd().replace(/^/gm, "  ")}\n`);
      say("waiting for a change");
    }
    api.changed();
  };
  const supervisor = new DevSupervisor({
    command: childCommand(),
    moduleUrl: new URL(`file://${file}`).href,
    graph: () => new Set(watch?.snapshot.keys() ?? [file]),
    output: (stream, text) => void (stream === "out" ? terminal.out(text) : terminal.err(text)),
    onWarm: () => api.changed(),
    onState: (state) => void (reported = reported.then(() => report(state)).catch(() => {})),
  });
  const sockets = new DevSockets();
  let listener;
  try {
    listener = await serve({ fetch: devHandler(supervisor, api, sockets) }, { port, hostname, quiet: true });
  } catch (error) {
    return await usage(terminal, errorLine(error));
  }
  origin = listener.url;
  say(`dev page at ${origin}${DEV_PAGE_PATH}; starting ${positionals[0]}`);
  if (open) say(`listening on ${hostname}: whoever reaches it can open the dev page and call the server's tools`);
  let restarting = Promise.resolve();
  let queued = false; // changes made while a restart runs make one more restart, not one each
  const watch = await watchGraph(file, isSdk, (changed) => {
    const since = performance.now();
    say(`${changed.map((f) => relativeTo(f, cwd)).join(", ")} changed; restarting`);
    if (queued) return;
    queued = true;
    restarting = restarting.then(() => {
      queued = false;
      // Clients reconnect on 1012 (IANA WebSocket close codes: Service Restart), to the next child.
      sockets.closeAll(SERVICE_RESTART, "service restart");
      return supervisor.restart(since);
    }).catch(() => {});
  });
  restarting = supervisor.restart();

  await new Promise<void>((resolve) => {
    const stop = terminal.onInterrupt(() => (stop(), resolve()));
  });
  watch.close();
  await restarting;
  sockets.closeAll(1001, "going away"); // RFC 6455 §7.4.1: the server is going down
  await supervisor.close();
  await api.close();
  await listener.close();
  return ExitCode.Ok;
}

async function usage(terminal: Terminal, message: string): Promise<number> {
  await terminal.err(`mcplite: ${message}\n${USAGE}\n`);
  return ExitCode.Error;
}
