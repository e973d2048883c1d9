/**
 * The behaviour every store's sets (`addMember`, `removeMember`, `members`) promise, as cases that
 * `sharedStoreCases()` and `resultStoreCases()` run among their own: members added once however often, removed, one
 * lifetime per set that adding only lengthens, expiry, hundreds of members, any characters, and a set apart from the
 * record of its key. A result store without sets passes them untested (its sets are optional).
 *
 * @module
 */
import { expiresAfterItsLifetime, EXPIRY_BOUND_MS, SHORT_LIFETIME_MS } from "./case-checks.ts";

/** A store's set methods. */
export type Sets = {
  addMember(key: string, member: string, ttlMs: number): Promise<void>;
  removeMember(key: string, member: string): Promise<void>;
  members(key: string): Promise<readonly string[]>;
};

/** What the set cases use of a store: its sets (`undefined`: it has none), and a record beside them. */
export interface SetCaseStore {
  readonly sets: Sets | undefined;
  write(key: string, value: { readonly status: "working"; readonly at: number }, ttlMs: number): Promise<unknown>;
  read(key: string): Promise<unknown>;
  remove(key: string): Promise<void>;
}

/** Fails the case unless `actual` holds the members `expected`, in any order. */
function sameMembers(actual: readonly string[], expected: readonly string[], what: string): void {
  const [a, e] = [actual, expected].map((list) => JSON.stringify([...list].sort()));
  if (a !== e) throw new Error(`${what}: expected the members ${e}, got ${a}`);
}

/** A set's members, failing the case when it holds any but `expected` (it is then expected to be empty). */
const heldAlone = (sets: Sets, key: string, expected: readonly string[], what: string) => async () => {
  const members = await sets.members(key);
  if (members.length > 0) sameMembers(members, expected, what);
  return members.length > 0;
};

/**
 * The set cases: each opens the store with `storeOf` and writes keys from `id`.
 *
 * @param storeOf The store under test, opened once.
 * @param id A key no other case writes.
 * @returns The cases.
 */
export function setCases(
  storeOf: () => Promise<SetCaseStore>,
  id: () => Promise<string>,
): ReadonlyArray<{ readonly name: string; run(): Promise<void> }> {
  const withSets = (run: (sets: Sets, store: SetCaseStore) => Promise<void>) => async () => {
    const store = await storeOf();
    if (store.sets !== undefined) await run(store.sets, store);
  };
  return [
    {
      name: "sets (when the store has them): adds a member once however often, removes it, [] for an unknown key",
      run: withSets(async (sets) => {
        const key = await id();
        sameMembers(await sets.members(key), [], "an unknown key");
        await sets.addMember(key, "a", 10_000);
        await sets.addMember(key, "b", 10_000);
        await sets.addMember(key, "a", 10_000);
        sameMembers(await sets.members(key), ["a", "b"], "a, b, then a again");
        await Promise.all([sets.addMember(key, "c", 10_000), sets.addMember(key, "c", 10_000)]);
        sameMembers(await sets.members(key), ["a", "b", "c"], "c added twice at once");
        await sets.removeMember(key, "a");
        await sets.removeMember(key, "a");
        await sets.removeMember(key, "never added");
        await sets.removeMember(await id(), "of an unknown key");
        sameMembers(await sets.members(key), ["b", "c"], "a removed (twice), and one never added");
        await sets.removeMember(key, "b");
        await sets.removeMember(key, "c");
        sameMembers(await sets.members(key), [], "every member removed");
        await sets.addMember(key, "d", 10_000);
        sameMembers(await sets.members(key), ["d"], "a member added to a set emptied");
      }),
    },
    {
      name: "sets: a set and an entry of one key never meet",
      run: withSets(async (sets, store) => {
        const key = await id();
        await store.write(key, { status: "working", at: 7 }, 10_000);
        await sets.addMember(key, "member", 10_000);
        const entry = await store.read(key) as { status?: string; at?: number } | undefined;
        if (entry?.status !== "working" || entry.at !== 7) {
          throw new Error(`the entry beside a set: expected it as written, got ${JSON.stringify(entry)}`);
        }
        await store.remove(key);
        sameMembers(await sets.members(key), ["member"], "the set, after its key's entry was deleted");
        await sets.removeMember(key, "member");
        if (await store.read(key) !== undefined) throw new Error("an entry came back when a set's member went");
      }),
    },
    {
      name:
        `sets: expire after their lifetime (${SHORT_LIFETIME_MS} ms, bounded at ${EXPIRY_BOUND_MS / 1000} s), and ` +
        "start empty when added to again",
      run: withSets(async (sets) => {
        const key = await id();
        const old = heldAlone(sets, key, ["old"], "a set with a short lifetime");
        await expiresAfterItsLifetime((ttlMs) => sets.addMember(key, "old", ttlMs), old, "a set");
        await sets.addMember(key, "new", 10_000);
        sameMembers(await sets.members(key), ["new"], "a set added to after it expired");
      }),
    },
    {
      name: "sets: adding lengthens the set's lifetime for every member, and never shortens it",
      run: withSets(async (sets) => {
        const [key, witness] = [await id(), await id()];
        await sets.addMember(key, "short", SHORT_LIFETIME_MS);
        await sets.addMember(key, "long", 60_000); // the whole set now lives 60 s
        await sets.addMember(key, "shorter", 1); // and still does
        const written = heldAlone(
          sets,
          witness,
          ["w"],
          "a set with a short lifetime, written after the one under test",
        );
        await expiresAfterItsLifetime((ttlMs) => sets.addMember(witness, "w", ttlMs), written, "a set");
        sameMembers(
          await sets.members(key),
          ["long", "short", "shorter"],
          "a set lengthened to 60 s, once a shorter lifetime passed",
        );
      }),
    },
    {
      name: "sets: keeps 500 members, added 50 at a time",
      run: withSets(async (sets) => {
        const key = await id();
        const all = Array.from({ length: 500 }, (_, i) => `member-${i}`);
        for (let i = 0; i < all.length; i += 50) {
          await Promise.all(all.slice(i, i + 50).map((member) => sets.addMember(key, member, 30_000)));
        }
        sameMembers(await sets.members(key), all, "500 members");
        await Promise.all(all.filter((_, i) => i % 2 === 0).map((member) => sets.removeMember(key, member)));
        sameMembers(await sets.members(key), all.filter((_, i) => i % 2 === 1), "250 of them removed");
      }),
    },
    {
      name: "sets: keeps members and keys of any characters (`:`, spaces, quotes, Unicode, an empty string)",
      run: withSets(async (sets) => {
        const key = `${await id()}:a key with spaces: ü 😀 '"%*?[]{}\\`;
        const odd = ["a:b", "with spaces", " ", "", "ü", "😀 emoji", "'quoted\"", "%_*?[]{}\\", "new\nline", "évt"];
        for (const member of odd) await sets.addMember(key, member, 10_000);
        sameMembers(await sets.members(key), odd, "members of odd characters");
        await sets.removeMember(key, "a:b");
        await sets.removeMember(key, "");
        sameMembers(await sets.members(key), odd.filter((m) => m !== "a:b" && m !== ""), "two of them removed");
        sameMembers(await sets.members(`${key}:`), [], "a key that only starts like it");
      }),
    },
  ];
}
