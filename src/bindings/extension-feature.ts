/**
 * The wire-neutral part of an extension's features (SEP-2133): the extension itself, which every binding
 * that lists what a server serves (MCP-lite's `/listtools`, gRPC's `GetTools`; this SDK's MCP-lite extension E5)
 * or calls a method by name (gRPC's `CallMethod`) reads. A registry holds one per extension served.
 *
 * @module
 */
import type { Extension, Feature, Registry } from "../core/mod.ts";

/** What a binding reads of an extension: its identifier, its settings, its methods and notifications. */
type Served = Pick<Extension, "id" | "advertised" | "methods" | "notifications">;

/** The feature: the extension, as `extension`; and its claims, checked as it is served. */
export interface ExtensionFeature extends Feature {
  /** The extension. */
  readonly extension: Served;
  /**
   * Refuses the extension when the registry serves its identifier or one of its methods already (SEP-2133: an SDK
   * serves one extension per identifier), the same value included.
   */
  readonly admit: (registry: Registry) => void;
}

/**
 * The wire-neutral feature of an extension.
 *
 * @param extension The extension.
 * @returns The feature.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineExtension } from "../extension/define-extension.ts";
 * import { extensionFeature } from "./extension-feature.ts";
 * const ledger = defineExtension("org.example/ledger").settings({ currencies: ["EUR"] });
 * assert.equal(extensionFeature(ledger).extension, ledger);
 * ```
 */
export function extensionFeature(extension: Served): ExtensionFeature {
  const admit = (registry: Registry) => {
    // An identifier has one `/`, a method's name at least two; a notification's name starts with its own
    // extension's identifier, so no other extension can reach it.
    for (const feature of registry.features) {
      const other = (feature as Partial<ExtensionFeature>).extension;
      const claim = other &&
        [extension.id, ...extension.methods.keys()].find((c) => c === other.id || other.methods.has(c));
      if (claim) throw new TypeError(`${claim} is served already (by an extension)`);
    }
  };
  return Object.freeze({ extension, admit });
}

/**
 * The extensions the server serves, each identifier's settings (SEP-2133 `capabilities.extensions`).
 *
 * @param registry The registry.
 * @returns The settings by identifier, or `undefined` when it serves none.
 */
export function servedExtensions(registry: Registry): Record<string, Readonly<Record<string, unknown>>> | undefined {
  let served: Record<string, Readonly<Record<string, unknown>>> | undefined;
  for (const feature of registry.features) {
    const extension = (feature as Partial<ExtensionFeature>).extension;
    if (extension) (served ??= {})[extension.id] = extension.advertised;
  }
  return served;
}

/**
 * Finds a method or notification a served extension defines, by its name.
 *
 * @param registry The registry.
 * @param name The message's name.
 * @returns The extension and its message, or `undefined` when none serves it.
 */
export function extensionMessage(
  registry: Registry,
  name: string,
):
  | { readonly extension: Served; readonly message: Served["methods"] extends ReadonlyMap<string, infer M> ? M : never }
  | undefined {
  for (const feature of registry.features) {
    const extension = (feature as Partial<ExtensionFeature>).extension;
    const message = extension?.methods.get(name) ?? extension?.notifications.get(name);
    if (extension && message) return { extension, message: message as never };
  }
}
