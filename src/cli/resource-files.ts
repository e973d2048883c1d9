/**
 * `--resource key=path`: the files the user hands a tool that asks for a resource (MCP-lite
 * `request-for-more-resource`, the README's extension of MCP-lite spec v0.042 §3.3). The request's key
 * picks the file; its contents go back as text when they are UTF-8, else as a base64 `blob`.
 *
 * @module
 */
import type { InputContext, RequestedResource, ResourceAnswer } from "../client/input.ts";
import { base64Encode } from "../codec/base64url.ts";
import { UsageError } from "./exit-errors.ts";

interface Fs {
  readFile(path: string): Promise<Uint8Array>;
  realpath(path: string): Promise<string>;
}

/** Media types by extension, for the files the CLI hands over; anything else is `application/octet-stream` or `text/plain`. */
const TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  csv: "text/csv",
  html: "text/html",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
};

/**
 * Reads `--resource` pairs into `key → path`.
 *
 * @param pairs The `key=path` values, in order.
 * @returns The paths by key.
 * @throws {UsageError} For a pair without `=`, an empty key or path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resourcePaths } from "./resource-files.ts";
 * assert.deepEqual(resourcePaths(["spec=./style.md"]), new Map([["spec", "./style.md"]]));
 * ```
 */
export function resourcePaths(pairs: readonly string[]): Map<string, string> {
  const paths = new Map<string, string>();
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0 || eq === pair.length - 1) {
      throw new UsageError(`--resource takes key=path, not ${JSON.stringify(pair)}`);
    }
    paths.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return paths;
}

/**
 * Creates the `onResourceRequest` handler that answers from the named files. A request whose key has no
 * file (or, with one `--resource`, any request) fails the call saying which `--resource` to pass.
 *
 * @param paths The files by request key.
 * @returns The handler.
 */
export function fileResources(
  paths: ReadonlyMap<string, string>,
): (request: RequestedResource, context: InputContext) => Promise<ResourceAnswer> {
  // Deno, Bun and Node all have it; loaded only when a server asks, and named literally so that JSR can analyse it.
  const fs = () => import("node:fs/promises") as Promise<Fs>;
  return async (request, context) => {
    const key = context.key;
    const path = (key === undefined ? undefined : paths.get(key)) ??
      (paths.size === 1 ? [...paths.values()][0] : undefined);
    if (path === undefined) {
      throw new UsageError(
        `the server asks for a resource (${JSON.stringify(request.description ?? "")}): pass it with --resource ${
          key ?? "key"
        }=<file>`,
      );
    }
    const files = await fs();
    const bytes = await files.readFile(path);
    const uri = new URL(`file://${await files.realpath(path)}`).href;
    const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
    try {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      return { uri, mimeType: TYPES[ext] ?? "text/plain", text };
    } catch {
      return { uri, mimeType: TYPES[ext] ?? "application/octet-stream", blob: base64Encode(bytes) };
    }
  };
}
