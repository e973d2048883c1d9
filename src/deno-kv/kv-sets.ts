/**
 * The sets of the Deno KV result store (`addMember`, `removeMember`, `members`): a set's lifetime in one key
 * (`[...prefix, key, true]`, apart from every entry's key, whose parts are strings and numbers), each member in a
 * key under it, holding the same lifetime, so that a set is listed by its prefix.
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import type { DenoKvLike } from "./deno-kv-like.ts";

/** A set's lifetime, and each member's (the same, but while a lengthening passes over the members). */
interface Lifetime {
  readonly expiresAt: number;
}

/** How many times an operation retries when another writer committed between its read and its commit. */
const MAX_ATTEMPTS = 64;

/**
 * How long KV keeps a key past the lifetime it holds: a read decides by the lifetime, and a set lengthened as it
 * was about to end still finds its members to lengthen.
 */
const GRACE_MS = 60_000;

/** The members a lengthening writes in one atomic operation (one check each: KV bounds the checks of one). */
const BATCH = 10;

/**
 * The set methods of a store on `kv`. A set lengthened is kept half its TTL longer than asked, so that members
 * added one after another lengthen (rewrite) its members once per half TTL, not at every add.
 *
 * @param kv The KV, with `list()`.
 * @param prefix The store's key prefix.
 * @param now The clock.
 * @returns The three methods.
 */
export function kvSets(
  kv: Required<DenoKvLike>,
  prefix: readonly string[],
  now: () => number,
): Pick<SharedStore, "addMember" | "removeMember" | "members"> {
  const setKey = (key: string) => [...prefix, key, true];
  const lifetime = (value: unknown) => (value as Lifetime | null)?.expiresAt ?? 0;
  const expireIn = (expiresAt: number, time: number) => Math.max(1, expiresAt - time) + GRACE_MS;

  /** Lengthens every member of the set to `expiresAt`; members of a set that ended by `since` are deleted. */
  const lengthen = async (key: readonly (string | boolean)[], expiresAt: number, since: number) => {
    let pending: { key: readonly unknown[]; value: unknown; versionstamp: string | null }[] = [];
    for await (const member of kv.list({ prefix: key })) pending.push(member);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === MAX_ATTEMPTS) throw new Error(`the set ${String(key.at(-2))} kept changing as it was lengthened`);
      const failed: typeof pending = [];
      for (let i = 0; i < pending.length; i += BATCH) {
        const batch = pending.slice(i, i + BATCH).filter((m) =>
          m.versionstamp !== null && lifetime(m.value) < expiresAt
        );
        if (batch.length === 0) continue;
        const op = kv.atomic().check(...batch.map(({ key, versionstamp }) => ({ key, versionstamp })));
        const time = now();
        for (const member of batch) {
          if (lifetime(member.value) <= since) op.delete(member.key);
          else op.set(member.key, { expiresAt } satisfies Lifetime, { expireIn: expireIn(expiresAt, time) });
        }
        if (!(await op.commit()).ok) failed.push(...batch);
      }
      // Changed meanwhile (removed, or lengthened by another add): read again, and lengthen what still needs it.
      pending = await Promise.all(failed.map(async ({ key }) => ({ key, ...await kv.get(key) })));
    }
  };

  return {
    async addMember(key, member, ttlMs) {
      const lifeKey = setKey(key);
      const memberKey = [...lifeKey, member];
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const kept = await kv.get(lifeKey);
        const time = now();
        const until = lifetime(kept.value);
        const wanted = time + Math.max(1, Math.ceil(ttlMs));
        // Each commit checks the lifetime read: an add that lengthened the set meanwhile makes this one read again.
        const op = kv.atomic().check({ key: lifeKey, versionstamp: kept.versionstamp });
        if (wanted <= until) { // the set lives long enough: the member joins it until it ends
          op.set(memberKey, { expiresAt: until } satisfies Lifetime, { expireIn: expireIn(until, time) });
          if ((await op.commit()).ok) return;
          continue;
        }
        const expiresAt = time + Math.ceil(Math.max(1, ttlMs) * 1.5);
        op.set(lifeKey, { expiresAt } satisfies Lifetime, { expireIn: expireIn(expiresAt, time) });
        op.set(memberKey, { expiresAt } satisfies Lifetime, { expireIn: expireIn(expiresAt, time) });
        if (!(await op.commit()).ok) continue;
        // The members before it: every add after the commit above joins the new lifetime (its check fails on
        // the old one), so this list, read after it, holds every member the lifetime has yet to reach.
        return await lengthen(lifeKey, expiresAt, time);
      }
      throw new Error(`the set ${key} kept changing under ${MAX_ATTEMPTS} attempts to add to it`);
    },
    async removeMember(key, member) {
      await kv.atomic().delete([...setKey(key), member]).commit();
    },
    async members(key) {
      const members: string[] = [];
      const time = now();
      for await (const { key: memberKey, value } of kv.list({ prefix: setKey(key) })) {
        if (lifetime(value) > time) members.push(memberKey.at(-1) as string);
      }
      return members;
    },
  };
}
