/**
 * The `org.example/ledger` extension (SEP-2133) the interop tests drive: one request
 * (`org.example/ledger/get`), which sends the server→client notification `org.example/ledger/changed` on
 * its own stream before it answers and tells what the client declared; one client notification
 * (`org.example/ledger/touched`), which `org.example/ledger/touches` reads back; and
 * `org.example/ledger/confirm`, which asks the client `org.example/ledger/approve` (2025 revisions only).
 * Imported, it gives the server; run (`bun tests/extension/ledger-server.ts`), it serves it on stdio.
 */
import * as v from "valibot";
import { createServer, defineExtension, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";

/** The extension's identifier. */
export const LEDGER = "org.example/ledger";

/** The settings the server advertises for it. */
export const ADVERTISED = { currencies: ["EUR"] };

/** What each client declares for it. */
export const DECLARED = { currency: "EUR" };

/**
 * The ledger server.
 *
 * @returns A server with the extension, on MCP, MCP-lite and a WebSocket.
 */
export function ledgerServer() {
  const touched: string[] = [];
  const ledger = defineExtension(LEDGER)
    .settings(ADVERTISED)
    .method(`${LEDGER}/get`, v.object({ id: v.string() }), async ({ id }, ctx) => {
      await ctx.notify(`${LEDGER}/changed`, { id, balance: 42 });
      return { id, balance: 42, declared: ctx.client.extensions?.[LEDGER] ?? null };
    })
    .method(`${LEDGER}/touches`, v.object({}), () => ({ touched }))
    .method(`${LEDGER}/confirm`, v.object({ id: v.string() }), async ({ id }, ctx) => {
      try {
        const answer = await ctx.request(`${LEDGER}/approve`, { id });
        return { approved: answer.approved === true };
      } catch (error) {
        return { approved: null, reason: (error as { code?: string }).code ?? String(error) };
      }
    })
    .notification(`${LEDGER}/touched`, v.object({ id: v.string() }), ({ id }) => void touched.push(id));
  return createServer({
    name: "bank",
    version: "1.0.0",
    bindings: [mcpBinding(), mcpLiteBinding(), webSocketBinding()],
  }).extension(ledger);
}

if (import.meta.main) serveStdio(ledgerServer());
