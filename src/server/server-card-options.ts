/**
 * The options of the server card (`createServer({ serverCard })`; SEP-2127, draft).
 *
 * @module
 */

/** Where the server's source lives (SEP-2127 `Repository`). */
export interface ServerCardRepository {
  /** The repository's URL, e.g. `https://github.com/acme/weather-mcp`. */
  readonly url: string;
  /** Its host, e.g. `"github"`. */
  readonly source: string;
  /** The server's folder in a monorepo, relative to the root. */
  readonly subfolder?: string;
  /** The host's id of the repository, stable across renames. */
  readonly id?: string;
}

/**
 * What the server card says beyond what the server's options already tell (`name`, `version`,
 * `title`, `description`, `icons`, `websiteUrl`, the MCP endpoints and `auth`).
 *
 * @example
 * ```ts
 * import { createServer } from "../../mod.ts";
 * const server = createServer({
 *   name: "weather",
 *   version: "1.2.0",
 *   description: "Forecasts and alerts",
 *   serverCard: { name: "com.example/weather", origin: "https://weather.example.com" },
 * });
 * ```
 */
export interface ServerCardOptions {
  /**
   * The card's name, in reverse-DNS form with one slash (`com.example/weather`), as the MCP Registry
   * names servers. Default: the server's `name`.
   */
  readonly name?: string;
  /**
   * The public origin the card's endpoint URLs start with (`https://api.example.com`), for a server
   * behind a proxy or a load balancer. Default: the origin of `auth.resource` when the server has
   * `auth`, else the origin each request was addressed to.
   */
  readonly origin?: string;
  /** Where the server's source lives. */
  readonly repository?: ServerCardRepository;
  /** Extension metadata, under reverse-DNS keys (the card's `_meta`). */
  readonly _meta?: Readonly<Record<string, unknown>>;
}
