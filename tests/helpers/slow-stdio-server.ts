/**
 * A stdio server that starts slowly, as `uv run`, `npx` or a Python import do: it reads nothing from
 * stdin for `delayMs`, then speaks one era. Run as a child: `slow-stdio-server.ts <delayMs> <era>`, era
 * `2025` (answers `server/discover` with -32601), `2026` (locks the connection at 2026-07-28 on
 * `server/discover`, refusing a later `initialize` with -32022, as the Python SDK does), `silent`
 * (a 2025 server that never answers `server/discover`) or `mute` (answers nothing). Its `seen` tool
 * returns the requests (and cancellations) it received, in order. `<delayMs>` may be `initialize`: then
 * it answers nothing until `initialize` came, i.e. until the client's probe wait passed however short
 * it is (a start slower than the probe's wait, by order rather than by the clock).
 */
import process from "node:process";

const [delayMs, era] = [process.argv[2], process.argv[3]];
const untilInitialize = delayMs === "initialize";
const seen: string[] = [];
let modern = false;
const tool = { name: "seen", description: "The methods received", inputSchema: { type: "object" } };
const send = (message: unknown): void => {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message as object }) + "\n");
};

function answer(message: { id?: unknown; method?: string; params?: { protocolVersion?: string } }): void {
  const { id, method } = message;
  if (method === "notifications/cancelled") seen.push(method);
  if (method === undefined || id === undefined) return; // notifications
  seen.push(method);
  if (era === "mute") return;
  if (method === "server/discover") {
    if (era === "silent") return;
    if (era === "2025") return send({ id, error: { code: -32601, message: "Method not found" } });
    modern = true;
    return send({
      id,
      result: { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, serverInfo: { name: "slow-2026" } },
    });
  }
  if (method === "initialize") {
    if (modern) {
      const data = { supported: ["2026-07-28"], requested: message.params?.protocolVersion };
      return send({ id, error: { code: -32022, message: "the connection speaks 2026-07-28", data } });
    }
    return send({
      id,
      result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: `slow-${era}` } },
    });
  }
  if (method === "tools/list") return send({ id, result: { tools: [tool] } });
  if (method === "tools/call") return send({ id, result: { content: [{ type: "text", text: seen.join(" ") }] } });
  send({ id, error: { code: -32601, message: "Method not found" } });
}

/** The messages read while the start lasts (`initialize` mode), answered in order once it ends. */
let held: Parameters<typeof answer>[0][] | undefined = untilInitialize ? [] : undefined;

setTimeout(() => {
  let buffered = "";
  process.stdin.on("data", (chunk) => {
    buffered += String(chunk);
    let at: number;
    while ((at = buffered.indexOf("\n")) !== -1) {
      const message = JSON.parse(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
      if (held === undefined) {
        answer(message);
        continue;
      }
      held.push(message);
      if (message.method !== "initialize") continue;
      for (const each of held) answer(each);
      held = undefined;
    }
  });
}, untilInitialize ? 0 : Number(delayMs));
