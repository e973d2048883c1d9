/**
 * The tool check of a server created without long-running support.
 *
 * @module
 */
import type { AnyTool } from "../core/definitions/tool.ts";

/** The check of a server without long-running support: a tool that may answer "not done yet" needs it. */
export function refuseLongRunning(tool: AnyTool): void {
  if (tool.longRunning === undefined) return;
  throw new TypeError(
    `tool "${tool.name}" is long-running (.redeem() or .longRunning()), but this server has no long-running ` +
      `support: createServer({ ..., longRunning }) (import { longRunning } from "@mcplite/sdk/lite")`,
  );
}
