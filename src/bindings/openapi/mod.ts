/**
 * `@mcplite/sdk/openapi`: OpenAPI both ways. {@link openapiBinding} serves a server's tools as a
 * described REST API (an OpenAPI 3.1 document, one `POST` operation per tool, RFC 9457 problems);
 * {@link toolsFromOpenAPI} turns any OpenAPI 3.0 or 3.1 document into tools that call the API it
 * describes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../../mod.ts";
 * import { openapiBinding, toolsFromOpenAPI } from "./mod.ts";
 *
 * const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
 *   .output(v.object({ sum: v.number() })).handle(({ a, b }) => ({ sum: a + b }));
 * const api = createServer({ name: "math", version: "1.0.0", bindings: [openapiBinding()] }).tool(add);
 *
 * // The served document, imported: tools that call the API over HTTP (here through api.fetch).
 * const document = await (await api.fetch(new Request("http://localhost/api/openapi.json"))).json();
 * const [imported] = await toolsFromOpenAPI(document, { baseUrl: "http://localhost", fetch: api.fetch });
 * const proxy = createServer({ name: "proxy", version: "1.0.0" }).tool(imported);
 * const outcome = await proxy.call("add", { a: 2, b: 3 });
 * assert.deepEqual(outcome.kind === "answer" && outcome.result.structuredContent, { sum: 5 });
 * ```
 *
 * @module
 */
export { openapiBinding } from "./openapi-binding.ts";
export type { OpenApiOptions } from "./openapi-binding.ts";
export type { OpenApiInfo, OpenApiServer } from "./document.ts";
export type { Problem } from "./problem.ts";
export { toolsFromOpenAPI } from "../../tool/openapi/tools-from-openapi.ts";
export type { OpenApiOperation, ToolsFromOpenApiOptions } from "../../tool/openapi/tools-from-openapi.ts";
