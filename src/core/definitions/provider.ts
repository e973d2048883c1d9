/**
 * The provider contract: where a server's definitions come from. A provider lists and gets tools, prompts,
 * resources and skills and raises change events; a server's registry is an ordered list of them (its own
 * definitions first, then each one mounted, `server.group()`'s namespaced child say), and what they give is read
 * through them on each list and call, not copied in. A transform is a provider over another: it lists as a pure
 * function over the inner one's items and gets through it.
 *
 * @module
 */
import type { Feature } from "./feature.ts";
import type { AnyPrompt } from "./prompt.ts";
import type { RegistryChange } from "./registry-view.ts";
import type { AnyResource } from "./resource.ts";
import type { Skill } from "./skill.ts";
import type { AnyTool } from "./tool.ts";

/** A source of definitions a registry serves, in the order it lists them, with the changes it raises. */
export interface Provider {
  /**
   * Looks a tool up by the name it is served under: on the call path, so constant time.
   *
   * @param name The tool name.
   * @returns The tool, or `undefined`.
   */
  get(name: string): AnyTool | undefined;
  /** The tools, in order. */
  readonly tools: Iterable<AnyTool>;
  /**
   * Looks a prompt up by the name it is served under.
   *
   * @param name The prompt name.
   * @returns The prompt, or `undefined`.
   */
  prompt(name: string): AnyPrompt | undefined;
  /** The prompts, in order. */
  readonly prompts: Iterable<AnyPrompt>;
  /** The resources and templates, in order. */
  readonly resources: Iterable<AnyResource>;
  /**
   * Finds a skill by its URI (`skill://<name>/SKILL.md`).
   *
   * @param uri The URI.
   * @returns The skill, or `undefined`.
   */
  skill(uri: string): Skill | undefined;
  /** The skills (SEP-2640), in order. */
  readonly skills: Iterable<Skill>;
  /** The features the definitions brought (the MCP methods that serve resources, say). */
  readonly features: ReadonlySet<Feature>;
  /**
   * Subscribes to what changes: a list, a resource's contents, a log sent outside any request.
   *
   * @param listener Called after each change.
   * @returns A function that unsubscribes.
   */
  onChange(listener: (change: RegistryChange) => void): () => void;
}
