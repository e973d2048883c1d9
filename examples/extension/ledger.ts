/**
 * The `org.example/ledger` extension (SEP-2133): what a vendor ships so that any server can adopt it and any
 * client can speak it. One value, `ledger(accounts)`, carries everything the extension adds:
 *
 * - its identifier and the settings the server advertises in `capabilities.extensions` (`{ currencies }`);
 * - two request methods, `org.example/ledger/balance` and `org.example/ledger/post`, with valibot params;
 * - one server→client notification, `org.example/ledger/changed`, sent on the posting request's own stream;
 * - one client notification, `org.example/ledger/audited`, which the server records.
 *
 * `post` needs a caller holding the scope `ledger:write` (refused as a tool's `.scopes()` refuses: 403 with the
 * step-up challenge), who owns the account (`ctx.auth.subject`), and a client that declared the extension (SEP-2133,
 * Graceful degradation: a mandatory extension is refused with -32021 and the capability it needs); `balance`
 * answers anyone.
 */
import * as v from "valibot";
import { defineExtension } from "../../mod.ts";
import { ProtocolError } from "../../src/errors/mod.ts";

/** The extension's identifier: a reverse-DNS prefix the vendor owns, then its name. */
export const LEDGER = "org.example/ledger";

/** What a client declares for it (its settings; `{}` would mean none). */
export interface LedgerClientSettings {
  /** The currency the client shows balances in. */
  readonly currency?: string;
}

/**
 * The ledger extension over an in-memory book of accounts.
 *
 * @param accounts The balances, by account (changed by `post`).
 * @param audits Where the client's `audited` notifications are kept.
 * @returns The extension, for `server.extension()`.
 */
export function ledger(accounts: Map<string, number>, audits: string[] = []) {
  const account = v.pipe(v.string(), v.minLength(1));
  return defineExtension(LEDGER)
    .settings({ currencies: ["EUR"] })
    .method(`${LEDGER}/balance`, v.object({ account }), ({ account }) => {
      const balance = accounts.get(account);
      if (balance === undefined) {
        throw new ProtocolError("invalid_params", `No account ${account}`, { data: { account } });
      }
      return { account, balance, currency: "EUR" };
    })
    .method(`${LEDGER}/post`, v.object({ account, amount: v.number() }), async ({ account, amount }, ctx) => {
      if (ctx.auth?.subject !== account) { // the caller, as a tool's handler sees it
        throw new ProtocolError("permission_denied", `Only the owner of ${account} posts to it`, { data: { account } });
      }
      if (ctx.client.extensions?.[LEDGER] === undefined) {
        throw new ProtocolError("missing_capability", `${LEDGER}/post needs a client that declares ${LEDGER}`, {
          data: { requiredCapabilities: { extensions: { [LEDGER]: {} } } },
        });
      }
      const balance = (accounts.get(account) ?? 0) + amount;
      accounts.set(account, balance);
      await ctx.notify(`${LEDGER}/changed`, { account, balance }); // on this request's stream, before the answer
      return { account, balance };
    }, { scopes: ["ledger:write"] })
    .notification(`${LEDGER}/audited`, v.object({ account }), ({ account }) => void audits.push(account));
}
