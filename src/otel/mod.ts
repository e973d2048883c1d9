/**
 * OpenTelemetry for MCP-lite and MCP servers and clients, per the semantic conventions for MCP
 * (open-telemetry/semantic-conventions-genai, `docs/gen-ai/mcp.md`): `otel()` traces every method a
 * server answers, on every wire, and `otelClient()` every request a client sends, carrying the trace
 * context to the server (`params._meta`, headers, gRPC metadata). It depends on `@opentelemetry/api`
 * only: the application registers the SDK and exporters it wants; without one, nothing is recorded.
 *
 * @module
 */
export { otel } from "./server.ts";
export type { OtelOptions } from "./server.ts";
export { otelClient } from "./client.ts";
