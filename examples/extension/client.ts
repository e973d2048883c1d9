/**
 * A client of the `org.example/ledger` extension (./ledger.ts), as the account holder alice (her demo token,
 * `Bearer alice-token`): it declares the extension, reads the server's ad, hears `org.example/ledger/changed` while
 * it posts to her account, and tells the server it audited it.
 *
 *   deno run -A examples/extension/client.ts [url]      bun run examples/extension/client.ts [url]
 *
 * The URL is the server's MCP endpoint, by default http://127.0.0.1:8000/mcp (examples/extension/server.ts): the
 * extension is MCP's (MCP-lite declares no client capabilities and streams no notification to a JSON answer).
 */
import process from "node:process";
import { createClient } from "../../src/client/mod.ts";
import { LEDGER } from "./ledger.ts";

/** What one run of the client saw. */
export interface LedgerRun {
  /** The server's settings for the extension (`capabilities.extensions`). */
  readonly advertised: unknown;
  /** Alice's balance before and after posting 5. */
  readonly before: number;
  readonly after: number;
  /** The `changed` notifications heard while posting. */
  readonly changed: readonly unknown[];
}

/**
 * Runs the client against a server.
 *
 * @param url The server's MCP endpoint.
 * @returns What it saw.
 */
export async function runLedgerClient(url: string): Promise<LedgerRun> {
  const client = createClient(url, {
    transport: "mcp",
    headers: { authorization: "Bearer alice-token" },
    extensions: { [LEDGER]: { currency: "EUR" } },
  });
  try {
    // What the server advertises: `server/discover` on 2026-07-28, `initialize` on the 2025 revisions.
    const capabilities = (await client.discover())?.capabilities as { extensions?: Record<string, unknown> };
    const advertised = capabilities.extensions?.[LEDGER];
    const changed: unknown[] = [];
    const stop = client.onNotification(`${LEDGER}/changed`, (params) => changed.push(params));
    const { balance: before } = await client.request<{ balance: number }>(`${LEDGER}/balance`, { account: "alice" });
    const { balance: after } = await client.request<{ balance: number }>(`${LEDGER}/post`, {
      account: "alice",
      amount: 5,
    });
    stop();
    await client.notify(`${LEDGER}/audited`, { account: "alice" });
    return { advertised, before, after, changed };
  } finally {
    await client.close();
  }
}

if (import.meta.main) console.log(await runLedgerClient(process.argv[2] ?? "http://127.0.0.1:8000/mcp"));
