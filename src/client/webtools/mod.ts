/**
 * The client's Webtools wire: a transport for a Webtools server (`createWebtoolsTransport()`), the version and hash
 * pin that makes it refuse metadata that changed (`pinOf()`, `checkPin()`), and the metadata as the Vercel AI SDK's
 * tool definitions (`webtoolsToAiTools()`).
 *
 * @example
 * ```ts ignore
 * import { createClient } from "@mcplite/sdk/client";
 * import { createWebtoolsTransport } from "@mcplite/sdk/client/webtools";
 *
 * const client = createClient(createWebtoolsTransport("https://tools.example.com/webtools", { version: "1.2.0" }));
 * ```
 *
 * @module
 */
export { createWebtoolsTransport } from "../transports/webtools.ts";
export type { WebtoolsTransportOptions } from "../transports/webtools.ts";
export { checkPin, pinOf, WebtoolsPinError } from "../webtools-pin.ts";
export type { WebtoolsPin } from "../webtools-pin.ts";
export { webtoolsToAiTools, type WebtoolsToAiToolsOptions } from "../webtools-ai.ts";
