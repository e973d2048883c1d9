/**
 * Features: what a definition brings to the wires that serve it besides itself, such as the MCP methods
 * that serve resources. The core only collects them (the registry keeps those of everything registered);
 * each binding reads its own part. A definition carries them so that a server without resources,
 * prompts or skills does not carry the code that serves them: a bundler leaves out what no imported
 * definition reaches.
 *
 * @module
 */
import type { Extension } from "./extension.ts";

/**
 * A feature: one part per binding that reads it (the MCP binding reads `mcp`); opaque to the core, but for
 * `admit(registry)`, which an extension's feature may have: run as the extension is served, it refuses the extension
 * by throwing (SEP-2133: an identifier, or a method, served already).
 */
export type Feature = Readonly<Record<string, unknown>>;

/** A definition that brings features, and the extensions it needs served, when it is registered. */
export interface Featured {
  /** The features it brings (e.g. the MCP methods that serve it), if any. */
  readonly features?: readonly Feature[];
  /**
   * The extensions it needs served (a skill the Skills extension, a tool's view MCP Apps): the server
   * serves each once, however many definitions bring the same value.
   */
  readonly extensions?: readonly Extension[];
}
