/**
 * The shared store on Cloudflare Durable Objects (`SharedStore`), which `durableObjectResultStore()` is a view of: one
 * `ResultObject` per record, reached through its namespace from any Worker isolate. Cloudflare delivers an object's
 * requests one at a time, so each conditional write (unless final, if absent, if as expected) is one request.
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import type { DurableObjectNamespaceLike } from "./namespace-like.ts";
import { MAX_ENTRY_BYTES, OBJECT_URL, type ObjectAnswer, type ObjectRequest } from "./object-protocol.ts";

const utf8 = new TextEncoder();

/** When a write is made: the record absent, or its JSON the one given (`null`: absent). */
type Condition = Extract<ObjectRequest, { op: "set" }>["if"];

/** Options of {@link durableObjectStore}: those of `durableObjectResultStore()`. */
export interface DurableObjectStoreOptions {
  /** The prefix of every object's name (default `"mcplite:result:"`). */
  readonly prefix?: string;
  /** The most bytes of one record's JSON (default 1 MiB, at most 4 000 000). */
  readonly maxBytes?: number;
}

/**
 * Creates the shared store on Durable Objects: each record one object named by the prefix and its key
 * (`idFromName`), each set one more, `<prefix>set:<key>`. Records expire by the object's alarm (a read past the
 * expiry finds nothing).
 *
 * @param namespace The Worker's Durable Object namespace binding whose class is `ResultObject`.
 * @param options The prefix of the objects' names and the bound on one record.
 * @returns The store.
 */
export function durableObjectStore<Id>(
  namespace: DurableObjectNamespaceLike<Id>,
  options: DurableObjectStoreOptions = {},
): SharedStore {
  const prefix = options.prefix ?? "mcplite:result:";
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  if (!(maxBytes > 0 && maxBytes <= MAX_ENTRY_BYTES)) {
    throw new RangeError(`maxBytes must be above 0 and at most ${MAX_ENTRY_BYTES}, not ${maxBytes}`);
  }
  const ask = async (key: string, request: ObjectRequest): Promise<ObjectAnswer> => {
    const object = namespace.get(namespace.idFromName(prefix + key));
    const response = await object.fetch(OBJECT_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    if (response.status === 413) throw new RangeError((await response.json()).error);
    if (!response.ok) {
      throw new Error(`the result store's Durable Object answered ${response.status}: ${await response.text()}`);
    }
    return await response.json() as ObjectAnswer;
  };
  const jsonOf = (value: unknown) => {
    const json = JSON.stringify(value);
    const size = utf8.encode(json).length;
    if (size > maxBytes) throw new RangeError(`a record of ${size} bytes exceeds the store's limit of ${maxBytes}`);
    return json;
  };
  const set = async (key: string, value: unknown, ttlMs: number, ended: boolean, condition?: Condition) => {
    const json = jsonOf(value);
    const request: ObjectRequest = condition === undefined
      ? { op: "set", json, ended, ttlMs: Math.max(1, ttlMs) }
      : { op: "set", json, ended, ttlMs: Math.max(1, ttlMs), if: condition };
    return (await ask(key, request)).written === true;
  };
  return {
    async get(key) {
      const { json } = await ask(key, { op: "get" });
      return typeof json === "string" ? JSON.parse(json) : undefined;
    },
    put: (key, value, ttlMs, options) => set(key, value, ttlMs, options?.final === true),
    putIfAbsent: (key, value, ttlMs) => set(key, value, ttlMs, false, "absent"),
    // The JSON compared is the text the object keeps, which this store wrote: `JSON.stringify` of what `get()` parsed.
    compareAndSet: (key, expected, next, ttlMs) =>
      set(key, next, ttlMs, false, { json: expected === undefined ? null : JSON.stringify(expected) }),
    async delete(key) {
      await ask(key, { op: "delete" });
    },
    async addMember(key, member, ttlMs) {
      await ask(`set:${key}`, { op: "add", member, ttlMs: Math.max(1, ttlMs) });
    },
    async removeMember(key, member) {
      await ask(`set:${key}`, { op: "remove", member });
    },
    async members(key) {
      return (await ask(`set:${key}`, { op: "members" })).members ?? [];
    },
  };
}
