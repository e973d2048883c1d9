/**
 * The lists a `mcplite dev` child serves, summed up: one digest per kind (tools, prompts, resources),
 * made by the child from its server's registry when it is ready, so that the dev server can tell,
 * across a restart, which lists changed and send `notifications/<kind>/list_changed` (MCP 2026-07-28,
 * `subscriptions/listen`) on the streams it keeps open for its clients.
 *
 * @module
 */
import { describePrompt, describeResource, describeTool, registryOf } from "../../core/mod.ts";
import { attachListener } from "../../server/listener.ts";

/** The kinds of list a client hears `list_changed` of. */
export const LIST_KINDS = ["tools", "prompts", "resources"] as const;

/** A kind of list. */
export type ListKind = typeof LIST_KINDS[number];

/** A digest of each list; absent for an app that is not a server from `createServer()`. */
export type ListDigests = Readonly<Record<ListKind, string>>;

/**
 * Digests the lists of a server as `tools/list`, `prompts/list` and `resources/list` describe them
 * (every entry, whoever may see it: a change to any of them is news to someone).
 *
 * @param app The module's server, or any `{ fetch }`.
 * @returns The digests, or `undefined` when `app` is not a server from `createServer()`.
 */
export async function listDigests(app: object): Promise<ListDigests | undefined> {
  let registry;
  try {
    registry = registryOf(attachListener(app).core);
  } catch {
    return undefined;
  }
  const lists: Record<ListKind, unknown[]> = {
    tools: [...registry.tools].map((tool) => describeTool(tool, false)),
    prompts: [...registry.prompts].map(describePrompt),
    resources: [...registry.resources].map(describeResource),
  };
  const digests = {} as Record<ListKind, string>;
  for (const kind of LIST_KINDS) digests[kind] = await sha256(JSON.stringify(lists[kind]));
  return digests;
}

/**
 * The kinds whose list changed between two children. Unknown digests (an app that is not a server)
 * count as changed: a `list_changed` too many costs a client one list, one too few leaves it stale.
 *
 * @param before The digests of the child that ended.
 * @param after The digests of the child that serves now.
 * @returns The kinds that changed.
 */
export function changedLists(before: ListDigests | undefined, after: ListDigests | undefined): ListKind[] {
  return LIST_KINDS.filter((kind) => before === undefined || after === undefined || before[kind] !== after[kind]);
}

async function sha256(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes.subarray(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
}
