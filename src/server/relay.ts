/**
 * Relays a server's changes through a {@link Notifier}: changes raised here are published, and changes
 * published by the other instances are replayed to this one's listeners (MCP `subscriptions/listen`
 * streams, 2025 GET streams, stdio), as if raised here.
 *
 * @module
 */
import type { Notifier } from "../core/instance/notifier.ts";
import type { Definitions, RegistryChange } from "../core/definitions/registry.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import { isObject } from "../internal/is-object.ts";
import type { Capability } from "./server-capability.ts";

const LISTS = new Set(["tools", "prompts", "resources"]);

/** A change as published: the instance it came from, and what changed. */
interface Relayed {
  readonly from: string;
  readonly change: RegistryChange;
}

/** A relay of its own, which a notifier brings (see `Notifier.relay`). */
export type Relay = (registry: Definitions, notifier: Notifier, onError?: (error: unknown) => void) => void;

/**
 * Reads a published change; `undefined` for a message that is not one, or one published by `self`.
 *
 * @param message The message.
 * @param self This instance's id: its own messages are skipped.
 * @returns The change.
 */
export function changeOf(message: string, self: string): RegistryChange | undefined {
  let relayed: unknown;
  try {
    relayed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isObject(relayed) || relayed.from === self || !isObject(relayed.change)) return undefined;
  const change = relayed.change;
  if (typeof change.kind === "string" && LISTS.has(change.kind)) return { kind: change.kind as "tools" };
  if (change.kind === "resource-updated" && typeof change.uri === "string") {
    // One caller's (a proxy's remote session of its own) stays that caller's on every instance.
    return typeof change.caller === "string"
      ? { kind: "resource-updated", uri: change.uri, caller: change.caller }
      : { kind: "resource-updated", uri: change.uri };
  }
  return undefined;
}

/**
 * Starts relaying; the subscription is made in the background (errors go to `onError`).
 *
 * @param registry The server's registry.
 * @param notifier The shared channel.
 * @param onError Receives publish and subscribe errors.
 * @returns When subscribed (or failed to, which `onError` heard).
 */
export function relayChanges(
  registry: Definitions,
  notifier: Notifier,
  onError?: (error: unknown) => void,
): Promise<unknown> | void {
  const own = notifier.relay as (Capability<"relay"> & Relay) | undefined;
  if (own !== undefined) return own(registry, notifier, onError);
  const self = base64urlEncode(crypto.getRandomValues(new Uint8Array(12)));
  let replaying = false;
  registry.onChange((change) => {
    // The configuration schema is each instance's own, and so is a log outside requests (its proxy's remote's).
    if (replaying || change.kind === "config" || change.kind === "log") return;
    const relayed: Relayed = { from: self, change };
    notifier.publish(JSON.stringify(relayed)).catch((error) => onError?.(error));
  });
  return notifier.subscribe((message) => {
    const change = changeOf(message, self);
    if (change === undefined) return;
    replaying = true;
    try {
      registry.announce(change);
    } finally {
      replaying = false;
    }
  }, onError).catch((error) => onError?.(error));
}
