/**
 * The endpoints `mcplite dev` prints: each wire's default path under the server's `basePath`, asked
 * of the running child (a path no binding serves answers 404), so the list is what the module serves.
 *
 * @module
 */

/** One endpoint. */
export interface DevEndpoint {
  /** What speaks there. */
  readonly name: string;
  /** Its path on the dev server. */
  readonly path: string;
}

/** The wires' default paths and a request each answers with something other than 404 when served. */
const PROBES: readonly { name: string; path: string; method: "GET" | "POST"; body?: string }[] = [
  { name: "MCP", path: "/mcp", method: "GET" },
  { name: "MCP-lite", path: "/mcp-lite/v1", method: "POST", body: "{}" },
  { name: "gRPC (Connect)", path: "/mcplite.MCPLite/", method: "POST", body: "{}" },
  { name: "Webtools", path: "/webtools", method: "GET" },
  { name: "OpenAPI", path: "/api/openapi.json", method: "GET" },
];

/**
 * Asks the child which wires it serves.
 *
 * @param childUrl The child's URL.
 * @param basePath The server's `basePath`.
 * @returns The endpoints found (paths with the `basePath`).
 */
export async function probeEndpoints(childUrl: string, basePath: string): Promise<DevEndpoint[]> {
  const probed = await Promise.all(PROBES.map(async ({ name, path, method, body }) => {
    // MCP-lite and Connect answer under their path; the probe names a method that every server has.
    const probe = path === "/mcp-lite/v1" ? `${path}/listtools` : path.endsWith("/") ? `${path}GetTools` : path;
    try {
      const response = await fetch(`${childUrl}${basePath}${probe}`, {
        method,
        body,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        signal: AbortSignal.timeout(5000),
      });
      await response.body?.cancel();
      return response.status === 404 ? [] : [{ name, path: `${basePath}${path}` }];
    } catch {
      return [];
    }
  }));
  return probed.flat();
}

/**
 * Formats the endpoints for the terminal.
 *
 * @param origin The dev server's origin.
 * @param endpoints The endpoints.
 * @param pagePath The dev page's path.
 * @returns The lines.
 */
export function endpointLines(origin: string, endpoints: readonly DevEndpoint[], pagePath: string): string {
  const rows = [...endpoints.map((e) => [e.name, origin + e.path]), ["Dev page", `${origin}${pagePath}`]];
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, url]) => `  ${name.padEnd(width)}  ${url}\n`).join("");
}
