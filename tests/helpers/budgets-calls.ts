/**
 * The budgets server (tests/server/budgets-server.ts) in a child process, and a raw call of its `hold` tool:
 * for tests/server/budgets.test.ts and bench/budgets-rss.ts.
 */
import { connect } from "node:net";
import { type ChildServer, childServer } from "./child-server.ts";
import { ROOT } from "./process.ts";
import { runtimeCommand } from "./stdio.ts";

/** Starts the budgets server with these limits, on this runtime (or Node 22), with `gc()` exposed. */
export async function budgetsServer(limits: object, node?: string): Promise<ChildServer> {
  const file = `${ROOT}tests/server/budgets-server.ts`;
  if (node !== undefined) return await childServer(node, ["--expose-gc", file, JSON.stringify(limits)]);
  const { command, args } = runtimeCommand(file);
  if (args[0] === "run") args.splice(1, 0, "--v8-flags=--expose-gc");
  return await childServer(command, [...args, JSON.stringify(limits)]);
}

/** What a raw request was answered. */
export interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
}

/**
 * POSTs an MCP-lite call of `hold` on a raw socket, its body sent whole; resolves with the answer's head
 * as soon as it comes (a refusal comes before the body is read), then drops the connection. Rejects after 90 s (a
 * served call's 4 MiB is sent, parsed and held beside 59 others; with a core kept busy, past 30 s once).
 */
export function callHold(port: number, token: string, data: number, ms: number): Promise<Answer> {
  const body = new TextEncoder().encode(JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "hold", arguments: { data: "x".repeat(data), ms } },
  }));
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer in 90 s"));
    }, 90_000);
    let head = "";
    socket.on("data", (chunk: Uint8Array) => {
      head += new TextDecoder().decode(chunk);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      clearTimeout(timer);
      socket.destroy();
      const lines = head.slice(0, end).split("\r\n");
      const retryAfter = lines.find((line) => /^retry-after:/i.test(line))?.split(":")[1].trim();
      resolve({ status: Number(lines[0].split(" ")[1]), retryAfter });
    });
    socket.on("error", () => {}); // the server may stop reading a refused body: the answer already came
    socket.on("close", () => {
      clearTimeout(timer); // a connection closed before any answer is a failure of its own, said at once
      reject(new Error(`the server closed the connection without an answer (${head.length} bytes came)`));
    });
    socket.write(
      `POST /mcp-lite/v1/calltools HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${token}\r\n` +
        `content-type: application/json\r\ncontent-length: ${body.byteLength}\r\n\r\n`,
    );
    socket.write(body);
  });
}
