/**
 * The Webtools binding: the server's tools as a plain, versioned, pinnable HTTP API. `GET {base}/`
 * describes the latest tool set (actions with request and response schemas, the config schema and its
 * defaults) under a strong `ETag`; `GET {base}/{version}` describes an older one; `POST {base}/` runs an
 * action and answers `{ status: "ok", data }` or `{ status: "error", error: { code, message } }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../../mod.ts";
 * import { webtoolsBinding } from "./mod.ts";
 *
 * const current = defineTool("current")
 *   .describe("Current weather for a city")
 *   .input(v.object({ city: v.string() }))
 *   .config(v.object({ units: v.optional(v.picklist(["metric", "imperial"]), "metric") }))
 *   .handle(({ city }, ctx) => `${city}: 21 (${ctx.config.units})`);
 * const server = createServer({ name: "weather", version: "2.0.0", bindings: [webtoolsBinding({ base: "/webtools" })] })
 *   .tool(current);
 *
 * const response = await server.fetch(new Request("http://localhost/webtools/", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ action: "current", config: { units: "imperial" }, request: { city: "Paris" } }),
 * }));
 * assert.deepEqual(await response.json(), { status: "ok", data: "Paris: 21 (imperial)" });
 * ```
 *
 * @module
 */
export { webtoolsBinding } from "./handler.ts";
export type { WebtoolsOptions, WebtoolsVersion } from "./handler.ts";
export type { ExecuteRequest, WebtoolsEnvelope } from "./envelope.ts";
export { metadataHash } from "./metadata.ts";
export type { WebtoolAction, WebtoolsInfo, WebtoolsMetadata } from "./metadata.ts";
export { WebtoolsCode } from "../../errors/webtools-codes.ts";
