/**
 * The SDK's version, as jsr.json and package.json state it (tests/package.test.ts checks that they agree):
 * what the client and the CLI send as `clientInfo.version` (MCP 2025-11-25, Lifecycle: Initialization).
 */
export const SDK_VERSION = "1.0.0-rc.1";
