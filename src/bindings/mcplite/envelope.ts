/**
 * MCP-lite's wire format (seed §3–§4, Appendix A): paths, the `_meta` block and the list body.
 *
 * @module
 */
import type { FinalOutcome } from "../../core/outcome.ts";
import type { Registry } from "../../core/registry.ts";
import type { ToolResult } from "../../core/result.ts";
import { describeTool } from "../../tool/tool-def.ts";

/** The discovery endpoints, under the base path. */
export const LIST_PATHS = ["/listtools", "/tools"] as const;
/** The call endpoints, under the base path. */
export const CALL_PATHS = ["/calltools", "/rpc"] as const;

/** MCP-lite response types (seed §3.3). */
export type ResponseType = "answer" | "promise" | "elicitation" | "failure" | "request-for-more-resource";

/** The `_meta` block of every MCP-lite result. */
export interface LiteMeta {
  /** What kind of response this is. */
  response_type: ResponseType;
  /** When the response was made, ISO 8601. */
  timestamp: string;
  /** How long the call took on the server. */
  processing_time_ms: number;
  /** The server's version. */
  server_version: string;
}

/**
 * Builds the `/listtools` body once per change of the tool table.
 *
 * @param registry The tools.
 * @returns The JSON text `{"tools":[…]}`.
 */
export function listBody(registry: Registry): string {
  return registry.memo("mcplite:list", () => JSON.stringify({ tools: [...registry.tools].map((t) => describeTool(t, true)) }));
}

/**
 * Adds MCP-lite's `_meta` to a final outcome's result.
 *
 * @param outcome The outcome.
 * @param started `performance.now()` when the call began.
 * @param version The server version.
 * @returns The result to send.
 */
export function resultWithMeta(
  outcome: FinalOutcome,
  started: number,
  version: string,
): ToolResult & { _meta: LiteMeta } {
  const { content, structuredContent, isError } = outcome.result;
  const result: ToolResult & { _meta: LiteMeta } = {
    content,
    _meta: {
      response_type: outcome.kind,
      timestamp: new Date().toISOString(),
      processing_time_ms: Math.round(performance.now() - started),
      server_version: version,
    },
  };
  if (structuredContent !== undefined) result.structuredContent = structuredContent;
  if (isError === true) result.isError = true;
  return result;
}
