/**
 * A server's definitions that can serve providers after its own, in the order mounted (`server.group()` mounts
 * each child under a namespace transform): the first to serve a name serves it, in the lists as on the call path,
 * and what one raises, the registry raises. Servers that can group hold one; the others (`@mcplite/sdk/lite`
 * without `group`) hold plain `Definitions` and do not load this module.
 *
 * @module
 */
import type { Feature } from "./feature.ts";
import type { AnyPrompt } from "./prompt.ts";
import type { Provider } from "./provider.ts";
import { REDEEM_TOOL } from "../long-running/redeem-args.ts";
import { Definitions } from "./registry.ts";
import type { AnyResource } from "./resource.ts";
import type { Skill } from "./skill.ts";
import type { AnyTool } from "./tool.ts";

/**
 * Definitions, then the providers mounted after them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineTool } from "../../tool/define-tool.ts";
 * import { ComposedDefinitions } from "./composed-definitions.ts";
 * import { Definitions } from "./registry.ts";
 * import { Runtime } from "../instance/runtime.ts";
 *
 * const own = new ComposedDefinitions(new Runtime());
 * own.add(defineTool("ping").handle(() => "pong"));
 * const other = new Definitions(new Runtime());
 * other.add(defineTool("echo").handle(() => "echo"));
 * own.mount(other);
 * assert.deepEqual([...own.tools].map((tool) => tool.name), ["ping", "echo"]);
 * assert.equal(own.get("echo")?.name, "echo");
 * ```
 */
export class ComposedDefinitions extends Definitions {
  readonly #providers: Provider[] = [];

  /**
   * Serves a provider after this registry's own definitions and those mounted before, and raises what it raises.
   *
   * @param provider The provider.
   */
  mount(provider: Provider): void {
    this.#providers.push(provider);
    const adopt = () => {
      // The registry's features are its own set (a fork shares it): what a provider brings is served here too.
      for (const feature of provider.features) (this.features as Set<Feature>).add(feature);
      // Its long-running tools are redeemed by this registry's `redeem` (MCP-lite spec v0.042 §3.6).
      if (this.longRunning === undefined || this.get(REDEEM_TOOL) !== undefined) return;
      for (const tool of provider.tools) {
        if (tool.longRunning !== undefined) return this.add(this.longRunning.redeemTool(this));
      }
    };
    adopt();
    provider.onChange((change) => {
      if (change.kind === "config") return;
      if (change.kind !== "resource-updated" && change.kind !== "log") adopt();
      this.announce(change);
    });
    for (const kind of ["tools", "prompts", "resources"] as const) this.announce({ kind });
  }

  override get(name: string): AnyTool | undefined {
    return super.get(name) ?? this.#first("get", name);
  }

  override prompt(name: string): AnyPrompt | undefined {
    return super.prompt(name) ?? this.#first("prompt", name);
  }

  override skill(uri: string): Skill | undefined {
    return super.skill(uri) ?? this.#first("skill", uri);
  }

  override get tools(): IterableIterator<AnyTool> {
    return this.#after(super.tools, "tools");
  }

  override get prompts(): IterableIterator<AnyPrompt> {
    return this.#after(super.prompts, "prompts");
  }

  override get resources(): IterableIterator<AnyResource> {
    return this.#after(super.resources, "resources");
  }

  override get skills(): IterableIterator<Skill> {
    return this.#after(super.skills, "skills");
  }

  /** The own items of one list, then each provider's whose URI (a resource's, a skill's) or name no earlier had. */
  *#after<T extends { readonly uri?: string; readonly name?: string }>(
    own: Iterable<T>,
    kind: "tools" | "prompts" | "resources" | "skills",
  ): IterableIterator<T> {
    const seen = new Set<string | undefined>();
    for (const items of [own, ...this.#providers.map((provider) => provider[kind] as Iterable<T>)]) {
      for (const item of items) {
        const key = item.uri ?? item.name;
        if (!seen.has(key)) yield item;
        seen.add(key);
      }
    }
  }

  /** The first provider's definition under a name (or URI). */
  #first<M extends "get" | "prompt" | "skill">(lookup: M, key: string): ReturnType<Provider[M]> | undefined {
    for (const provider of this.#providers) {
      const found = provider[lookup](key) as ReturnType<Provider[M]> | undefined;
      if (found !== undefined) return found;
    }
  }
}
