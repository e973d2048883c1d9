/**
 * OpenAPI both ways: a server whose tools are also a described REST API (`/api/openapi.json`,
 * `POST /api/tools/{name}`), and a second server that imports that document back as tools and serves
 * them over MCP-lite and MCP.
 *
 *   deno run -A --unstable-no-legacy-abort examples/openapi.ts      bun run examples/openapi.ts
 *
 * Reads PORT (default 8000) and HOSTNAME (default 127.0.0.1); the importing server takes a free port.
 */
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../mod.ts";
import { ToolError } from "../src/errors/mod.ts";
import { openapiBinding, toolsFromOpenAPI } from "../src/bindings/openapi/mod.ts";

const convert = defineTool("convert")
  .describe("Converts a temperature between Celsius and Fahrenheit")
  .input(v.object({ value: v.number(), to: v.picklist(["C", "F"]) }))
  .output(v.object({ value: v.number(), unit: v.string() }))
  .handle(({ value, to }) => ({ value: to === "F" ? value * 9 / 5 + 32 : (value - 32) * 5 / 9, unit: to }));

const forecast = defineTool("forecast")
  .describe("Tomorrow's sky for a city")
  .input(v.object({ city: v.string() }))
  .handle(({ city }) => {
    if (city.toLowerCase() === "atlantis") throw new ToolError("no forecast under the sea");
    return `${city}: sunny`;
  });

// 1. Serve: MCP-lite, MCP and the OpenAPI binding on one fetch.
export const api = createServer({
  name: "weather",
  version: "1.0.0",
  bindings: [mcpLiteBinding(), mcpBinding(), openapiBinding({ base: "/api", info: { title: "Weather API" } })],
}).tool(convert).tool(forecast);
if (import.meta.main) {
  const served = await serve(api, { quiet: true });
  const origin = served.url.replace(/\/$/, "");

  // 2. Import: the served document (any OpenAPI 3.0 or 3.1 document works) becomes tools again.
  const document = await (await fetch(`${origin}/api/openapi.json`)).json();
  const tools = await toolsFromOpenAPI(document, { baseUrl: origin });
  let proxy = createServer({ name: "weather-proxy", version: "1.0.0" });
  for (const tool of tools) proxy = proxy.tool(tool);
  const imported = await serve(proxy, { port: 0, quiet: true });

  console.log(`OpenAPI document:  ${origin}/api/openapi.json`);
  console.log(`REST call:         curl -X POST ${origin}/api/tools/convert -H 'content-type: application/json' \\
                       -d '{"value": 21, "to": "F"}'`);
  console.log(
    `Imported tools:    ${tools.map((t) => t.name).join(", ")}, over MCP at ${imported.url.replace(/\/$/, "")}/mcp`,
  );
}
