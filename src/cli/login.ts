/**
 * `--login`: the command line connects to servers behind OAuth (MCP 2025-11-25, Authorization) with
 * the client's `oauth()`: a redirect listener on 127.0.0.1 (RFC 8252 §7.3, loopback redirect for
 * native apps; on a free port, or on `--redirect-port` for authorization servers that compare the
 * registered redirect URI exactly, port included), the authorization URL shown on stderr for the
 * user to open, and tokens kept in a file (mode 0600) so that later runs need no new login until
 * they expire.
 *
 * @module
 */
import type { ClientAuth } from "../client/http.ts";
import { oauth } from "../client/oauth/oauth.ts";
import { serve } from "../server/serve.ts";
import type { CliArgs } from "./args.ts";
import { errorLine, UsageError } from "./exit-errors.ts";
import { fileTokenStore } from "./token-file.ts";

/** How long the CLI waits for the browser to come back, in ms. */
const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** The authorization of one CLI run, and what to stop when it ends. */
export interface Login {
  /** The client authorization, for every HTTP transport. */
  readonly auth: ClientAuth;
  /** Stops the redirect listener. */
  close(): Promise<void>;
}

/**
 * Prepares OAuth for a run: starts the loopback redirect listener and the file token store.
 *
 * @param args The command line (`--client-id`, `--redirect-port`).
 * @param tokenPath The token file.
 * @param tell Writes a line for the user (stderr).
 * @returns The authorization and its cleanup.
 */
export async function startLogin(
  args: CliArgs,
  tokenPath: string,
  tell: (line: string) => Promise<void>,
): Promise<Login> {
  let deliver: ((url: string) => void) | undefined;
  const listener = await serve({
    fetch(request: Request) {
      const url = new URL(request.url);
      if (url.pathname !== "/callback") return new Response("Not Found", { status: 404 });
      deliver?.(request.url);
      return new Response("<!doctype html><p>mcplite is authorized. You can close this window.</p>", {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    },
  }, { port: args.redirectPort ?? 0, hostname: "127.0.0.1", quiet: true }).catch((error) => {
    throw new UsageError(`cannot listen on 127.0.0.1:${args.redirectPort} for the redirect (${errorLine(error)})`);
  });
  const auth = oauth({
    clientId: args.clientId,
    clientName: "mcplite",
    redirectUri: `${listener.url}/callback`,
    storage: fileTokenStore(tokenPath),
    // The key goes to the token file as a JWK, so it must be extractable (the file is 0600).
    ...(args.dpop ? { dpop: { extractable: true } } : {}),
    async onAuthorizationUrl(url) {
      const back = new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no authorization within 5 minutes")), LOGIN_TIMEOUT_MS);
        deliver = (callback) => {
          clearTimeout(timer);
          resolve(callback);
        };
      });
      await tell(`mcplite: open this URL to authorize: ${url.href}`);
      return await back;
    },
  });
  return { auth, close: () => listener.close() };
}
