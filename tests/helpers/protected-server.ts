/**
 * A docs server behind `jwtAuth()` and the oidc-provider authorization server that issues its tokens,
 * both listening on 127.0.0.1: `read_doc` for any token, `write_doc` for `docs:write`.
 */
import * as v from "valibot";
import { type Binding, createServer, defineTool, serve } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import type { AuthInfo } from "../../src/core/call/call-context.ts";
import type { Listener } from "../../src/types.ts";
import {
  type AuthorizationServer,
  type AuthorizationServerOptions,
  startAuthorizationServer,
} from "./authorization-server.ts";

/** The running pair. */
export interface ProtectedServer {
  /** Our server; its origin is the resource. */
  readonly listener: Listener;
  /** The resource tokens are issued for: the server's origin, covering every wire. */
  readonly resource: string;
  /** The authorization server. */
  readonly as: AuthorizationServer;
  /** The `ctx.auth` of each `read_doc` call, in order. */
  readonly callers: AuthInfo[];
  /** Stops both. */
  close(): Promise<void>;
}

/**
 * Starts both.
 *
 * @param bindings The server's wires (default: MCP-lite and MCP).
 * @param options What the authorization server's user consents to; `dpop` for `jwtAuth({ dpop })`.
 */
export async function startProtectedServer(
  bindings?: Binding[],
  options: AuthorizationServerOptions & { readonly dpop?: "required" | "allowed" } = {},
): Promise<ProtectedServer> {
  // The resource is the server's origin, known once it listens: the app is made after.
  const made: { app?: ReturnType<typeof createServer> } = {};
  const listener = await serve({ fetch: (request) => made.app!.fetch(request) }, {
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
  });
  const resource = listener.url;
  const as = await startAuthorizationServer(resource, options);
  const callers: AuthInfo[] = [];
  made.app = createServer({
    name: "docs",
    version: "1.0.0",
    auth: jwtAuth({
      issuer: as.issuer,
      resource,
      jwksUri: as.jwksUri,
      scopesSupported: ["docs:read", "docs:write"],
      ...(options.dpop !== undefined ? { dpop: options.dpop } : {}),
    }),
    bindings,
  })
    .tool(
      defineTool("read_doc").input(v.object({ id: v.string() })).handle(({ id }, ctx) => {
        callers.push(ctx.auth!);
        return `doc ${id}`;
      }),
    )
    .tool(
      defineTool("write_doc").scopes("docs:write").input(v.object({ id: v.string() })).handle(({ id }) =>
        `wrote ${id}`
      ),
    );
  return {
    listener,
    resource,
    as,
    callers,
    close: async () => {
      await listener.close();
      await as.close();
    },
  };
}
