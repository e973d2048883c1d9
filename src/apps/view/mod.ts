/**
 * The view side of MCP Apps (SEP-1865), for the browser: `connectApp()` connects a view to the host
 * that renders it, over `postMessage` JSON-RPC. Typed with `typeof server` and a tool name, the tool's
 * input and result and every `callTool()` are typed from the server's definitions. No schema library
 * comes with it (a few KB gzipped).
 *
 * @example
 * ```ts ignore
 * import { connectApp } from "@mcplite/sdk/apps/view";
 * import type { server } from "./server.ts";
 *
 * const app = await connectApp<typeof server, "forecast">({ name: "Forecast", version: "1.0.0" });
 * app.onToolResult((result) => console.log(result.structuredContent?.days));
 * ```
 *
 * @module
 */
export { connectApp } from "./connect-app.ts";
export { HostError } from "./rpc.ts";
export type {
  ConnectAppOptions,
  DisplayMode,
  HostCapabilities,
  HostContext,
  ViewApp,
  ViewToolInput,
  ViewToolName,
  ViewToolOutput,
  ViewToolResult,
} from "./view-types.ts";
