/**
 * A token store in a file for the command line (`--login`): what `oauth()` keeps per server (client
 * registration, tokens), written with mode 0600 so that other users cannot read it. Default path:
 * `$MCPLITE_TOKENS`, else `~/.config/mcplite/tokens.json`.
 *
 * @module
 */
import type { StoredAuthorization, TokenStore } from "../client/oauth/token-store.ts";

interface Fs {
  readFile(path: string, encoding: "utf8"): Promise<string>;
  writeFile(path: string, data: string, options: { mode: number }): Promise<void>;
  mkdir(path: string, options: { recursive: boolean; mode: number }): Promise<unknown>;
  chmod(path: string, mode: number): Promise<void>;
}

/**
 * The default path of the token file.
 *
 * @param env Reads an environment variable.
 * @returns The path.
 */
export function defaultTokenPath(env: (name: string) => string | undefined): string {
  return env("MCPLITE_TOKENS") ?? `${env("HOME") ?? env("USERPROFILE") ?? "."}/.config/mcplite/tokens.json`;
}

/**
 * Creates a store backed by a JSON file (read on each access, written whole, mode 0600).
 *
 * @param path The file.
 * @returns The store.
 */
export function fileTokenStore(path: string): TokenStore {
  // Deno, Bun and Node all have it; loaded only with --login, and named literally so that JSR can analyse it.
  const fs: Promise<Fs> = import("node:fs/promises");
  const read = async (): Promise<Record<string, FileEntry>> => {
    try {
      return JSON.parse(await (await fs).readFile(path, "utf8"));
    } catch {
      return {};
    }
  };
  const write = async (all: Record<string, FileEntry>) => {
    const files = await fs;
    const dir = path.slice(0, Math.max(path.lastIndexOf("/"), 0));
    if (dir !== "") await files.mkdir(dir, { recursive: true, mode: 0o700 });
    await files.writeFile(path, JSON.stringify(all, null, 2), { mode: 0o600 });
    await files.chmod(path, 0o600); // writeFile's mode applies only when it creates the file
  };
  return {
    get: async (key) => {
      const entry = (await read())[key];
      return entry === undefined ? undefined : await fromFile(entry);
    },
    async set(key, value) {
      await write({ ...(await read()), [key]: await toFile(value) });
    },
    async delete(key) {
      const all = await read();
      delete all[key];
      await write(all);
    },
  };
}

/** What the file holds for a server: the DPoP key pair (RFC 9449) as JWKs, the rest as it is. */
type FileEntry = Omit<StoredAuthorization, "dpopKey"> & {
  readonly dpopKey?: { readonly algorithm: EcKeyImportParams | Algorithm; readonly jwks: [JsonWebKey, JsonWebKey] };
};

async function toFile(value: StoredAuthorization): Promise<FileEntry> {
  const { dpopKey, ...rest } = value;
  // A non-extractable key cannot be written: the next run makes a new one (and new tokens).
  if (dpopKey === undefined || !dpopKey.privateKey.extractable) return rest;
  const jwks = await Promise.all([
    crypto.subtle.exportKey("jwk", dpopKey.privateKey),
    crypto.subtle.exportKey("jwk", dpopKey.publicKey),
  ]);
  return { ...rest, dpopKey: { algorithm: dpopKey.privateKey.algorithm, jwks } };
}

async function fromFile(entry: FileEntry): Promise<StoredAuthorization> {
  const { dpopKey, ...rest } = entry;
  if (dpopKey === undefined) return rest;
  const [privateKey, publicKey] = await Promise.all([
    crypto.subtle.importKey("jwk", dpopKey.jwks[0], dpopKey.algorithm, true, ["sign"]),
    crypto.subtle.importKey("jwk", dpopKey.jwks[1], dpopKey.algorithm, true, ["verify"]),
  ]);
  return { ...rest, dpopKey: { privateKey, publicKey } };
}
