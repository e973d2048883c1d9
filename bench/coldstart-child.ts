// One cold start: import (by absolute path) a one-tool server (a `bench/bundle/*.ts` entry, or its
// minified bundle), answer one `tools/call` add(1, 2) through its `fetch` in process, print the answer
// and exit. Spawned by `bench/coldstart.ts`; the request is built inline so that no helper module adds
// to the import time, and printed with `console.log`: `process.stdout` loads Node's stream machinery,
// which costs every row (the floor too) several milliseconds and hides the differences measured.
const [entry, path, protocol] = process.argv.slice(2);
if (entry === "--floor") {
  // The floor: the runtime's own start, with the same output and no server.
  console.log('{"result":{}}');
} else {
  const { default: server } = await import(entry) as {
    default: { fetch: (request: Request) => Response | Promise<Response> };
  };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "add", arguments: { a: 1, b: 2 } },
  });
  const headers: Record<string, string> = {
    host: "localhost",
    "content-type": "application/json",
    // MCP-lite answers JSON when asked; MCP's Streamable HTTP requires both types in Accept.
    accept: path.startsWith("/mcp-lite/") ? "application/json" : "application/json, text/event-stream",
  };
  if (protocol !== undefined) headers["mcp-protocol-version"] = protocol;
  const response = await server.fetch(new Request(`http://localhost${path}`, { method: "POST", headers, body }));
  console.log(await response.text());
}
