/**
 * The servers of code mode's interop tests (tests/code-mode/code-mode-interop.test.ts, and its Node 22 script): a
 * tracker of ours served on 127.0.0.1, and a gateway with `codeMode()` serving it through `proxy()` under
 * `tracker.`, also on 127.0.0.1; the program a client runs through `execute_code`, calling three tools of the
 * proxied server, and the filtered answer it must give. Both count the `tools/call` requests they receive.
 */
import * as v from "valibot";
import { createServer, defineTool, serve } from "../../mod.ts";
import { codeMode } from "../../src/code-mode/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";

/** The program: three tools of the proxied server, and only what it keeps. */
export const PROGRAM = `
const { issues } = await tools["tracker.issues"]({ state: "open" });
const bugs = issues.filter((issue: { labels: string[] }) => issue.labels.includes("bug"));
const owner = await tools["tracker.user"]({ login: bugs[0].author });
const { total } = await tools["tracker.count"]({});
return { bugs: bugs.map((bug) => bug.id), owner: owner.name, of: total };
`;

/** What the program answers. */
export const EXPECTED = { bugs: [1, 4], owner: "Ada Lovelace", of: 5 };

const ISSUES = [
  { id: 1, author: "ada", labels: ["bug"], open: true },
  { id: 2, author: "bob", labels: ["docs"], open: true },
  { id: 3, author: "bob", labels: ["bug"], open: false },
  { id: 4, author: "eve", labels: ["bug", "ui"], open: true },
  { id: 5, author: "eve", labels: [], open: true },
];

/** The two servers, started. */
export interface InteropServers {
  /** The gateway's MCP endpoint. */
  readonly url: string;
  /** The `tools/call` requests the gateway and the tracker received. */
  readonly calls: { gateway: number; tracker: number };
  /** Stops both. */
  close(): Promise<void>;
}

/** Counts the `tools/call` requests of a `fetch`. */
function counting(fetch: (request: Request) => Promise<Response>, count: () => void) {
  return async (request: Request) => {
    if (request.method === "POST" && (await request.clone().text()).includes('"tools/call"')) count();
    return fetch(request);
  };
}

/**
 * Starts the tracker and the gateway that serves it through code mode.
 *
 * @returns Their URL, their counts, and how to stop them.
 */
export async function startServers(): Promise<InteropServers> {
  const calls = { gateway: 0, tracker: 0 };
  const tracker = createServer({ name: "tracker", version: "1.0.0" })
    .tool(
      defineTool("issues").describe("Lists the issues").input(v.object({ state: v.picklist(["open", "all"]) }))
        .handle(({ state }) => ({ issues: ISSUES.filter((issue) => state === "all" || issue.open) })),
    )
    .tool(
      defineTool("user").describe("Reads a user").input(v.object({ login: v.string() }))
        .handle(({ login }) => ({ login, name: login === "ada" ? "Ada Lovelace" : login })),
    )
    .tool(defineTool("count").describe("Counts every issue").handle(() => ({ total: ISSUES.length })));
  const remote = await serve({ fetch: counting(tracker.fetch, () => calls.tracker++) }, {
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
  });
  const stop = new AbortController();
  const gateway = createServer({ name: "gateway", version: "1.0.0", codeMode: codeMode() })
    .group("tracker", await proxy(`${remote.url}/mcp`, { signal: stop.signal }));
  const served = await serve({ fetch: counting(gateway.fetch, () => calls.gateway++) }, {
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
  });
  return {
    url: `${served.url}/mcp`,
    calls,
    async close() {
      stop.abort();
      await served.close();
      await remote.close();
    },
  };
}
