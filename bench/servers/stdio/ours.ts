/**
 * This package over stdio: `serveStdio()` with the `add` tool; MCP-lite, MCP 2025 or 2026-07-28 by what
 * the client sends.
 *
 * @module
 */
import { serveStdio } from "../../../src/stdio/mod.ts";
import { ours } from "../ours.ts";

serveStdio(ours);
