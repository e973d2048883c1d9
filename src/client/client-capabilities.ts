/**
 * The MCP client capabilities a client's input handlers imply (MCP 2025-11-25, Lifecycle: capability
 * negotiation), declared with every request; answering the requests is `input.ts`, loaded on demand.
 *
 * @module
 */
import type { InputHandlers } from "./input.ts";

/** The experimental MCP capability a client declares to be asked for resources (the README's extension). */
const RESOURCE_REQUESTS = "io.mcplite/resourceRequests";

/**
 * Builds the capabilities that the handlers imply.
 *
 * @param handlers The handlers.
 * @returns The MCP client capabilities (`elicitation`, `sampling`, `roots`, and for resource requests
 *   the experimental `io.mcplite/resourceRequests`).
 */
export function capabilitiesOf(handlers: InputHandlers): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (handlers.onElicit) capabilities.elicitation = elicitationCapability(handlers.elicitationModes);
  if (handlers.onSample) capabilities.sampling = handlers.samplingTools ? { tools: {} } : {};
  if (handlers.onRoots) capabilities.roots = {};
  if (handlers.onResourceRequest) capabilities.experimental = { [RESOURCE_REQUESTS]: {} };
  return capabilities;
}

/** `{}` is form only, as before MCP 2025-11-25; otherwise one key per mode. */
function elicitationCapability(modes: readonly ("form" | "url")[] = ["form"]): Record<string, unknown> {
  if (!modes.includes("url")) return {};
  return Object.fromEntries(modes.map((mode) => [mode, {}]));
}
