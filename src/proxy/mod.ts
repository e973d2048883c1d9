/**
 * `@mcplite/sdk/proxy`: a remote MCP or MCP-lite server (a URL, a stdio command, a client) served as a
 * server of ours, to group into yours and serve on every wire it speaks.
 *
 * @module
 */
export { proxy } from "./proxy.ts";
export type { ProxyOptions } from "./proxy.ts";
export type { ProxySessionsOptions } from "./caller-sessions.ts";
