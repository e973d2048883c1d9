/**
 * `definePrompt()`: the immutable fluent builder for prompts whose arguments are typed by a valibot
 * object schema of strings.
 *
 * @module
 */
import { checkIcons, type Icon } from "../core/definitions/icon.ts";
import { type Completer, freezeCompleters } from "../core/definitions/completer.ts";
import { checkScopes } from "../core/definitions/scopes.ts";
import type { Feature } from "../core/definitions/feature.ts";
import {
  type CompiledSchema,
  compileSchema,
  type InferSchemaInput,
  type InferSchemaOutput,
  type NotAShape,
  type SchemaInput,
} from "../core/schema.ts";
import {
  type AnyPrompt,
  assertPromptName,
  type Prompt,
  type PromptArgument,
  type PromptHandler,
} from "../core/definitions/prompt.ts";

interface PromptState {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly args?: CompiledSchema;
  readonly arguments: readonly PromptArgument[];
  readonly meta?: Record<string, unknown>;
  readonly icons?: readonly Icon[];
  readonly completers?: Readonly<Record<string, Completer>>;
  readonly scopes?: readonly string[];
  /** What serves it (`src/core/definitions/feature.ts`), as the public `definePrompt()` names it. */
  readonly servedBy: readonly Feature[];
}

/**
 * The fluent builder `definePrompt()` returns. Every method returns a new builder.
 *
 * @typeParam TName The prompt name.
 * @typeParam TInput What the caller sends.
 * @typeParam TArgs What the handler receives.
 */
export class PromptBuilder<TName extends string, TInput = Record<string, never>, TArgs = Record<string, never>> {
  readonly #state: PromptState;

  /**
   * Creates a builder; use {@link definePrompt} instead.
   *
   * @param state The definition so far.
   */
  constructor(state: PromptState) {
    this.#state = Object.freeze(state);
  }

  #with<I, A>(patch: Partial<PromptState>): PromptBuilder<TName, I, A> {
    return new PromptBuilder<TName, I, A>({ ...this.#state, ...patch });
  }

  /**
   * Sets a human-readable title.
   *
   * @param title The title.
   * @returns A new builder.
   */
  title(title: string): PromptBuilder<TName, TInput, TArgs> {
    return this.#with({ title });
  }

  /**
   * Sets the description.
   *
   * @param description What the prompt is for.
   * @returns A new builder.
   */
  describe(description: string): PromptBuilder<TName, TInput, TArgs> {
    return this.#with({ description });
  }

  /**
   * Sets the arguments: an object schema whose properties are strings (MCP prompt arguments are
   * strings; a valibot pipe may still check them, a default fill them in). Each property is listed
   * with its description (`v.description(…)`) and whether it is required.
   *
   * @param schema A valibot object schema, a Standard Schema with JSON Schema, or a JSON Schema object.
   * @returns A new builder whose handler receives the schema's output type.
   * @throws {TypeError} When the schema is not an object of string properties, or is a raw shape
   *   (`{ topic: v.string() }`: wrap it in `v.object()`).
   */
  args<S extends SchemaInput>(
    schema: S & NotAShape<S>,
  ): PromptBuilder<TName, InferSchemaInput<S>, InferSchemaOutput<S>> {
    const where = `prompt "${this.#state.name}" arguments`;
    const args = compileSchema(schema, where);
    return this.#with({ args, arguments: argumentsOf(args, where) });
  }

  /**
   * Declares how to complete one argument (`completion/complete` with `ref/prompt`).
   *
   * @param argument The argument name.
   * @param completer Suggests values for what the user typed.
   * @returns A new builder.
   */
  complete(argument: keyof TInput & string, completer: Completer): PromptBuilder<TName, TInput, TArgs> {
    return this.#with({ completers: { ...this.#state.completers, [argument]: completer } });
  }

  /**
   * Sets the icons a client may show for the prompt (MCP 2025-11-25, `Icon`), listed as its `icons`.
   *
   * @param icons The icons: `https:` URLs or image `data:` URIs (`http:` only on localhost).
   * @returns A new builder.
   * @throws {TypeError} For a refused `src` (`javascript:`, `file:`, `http:` off loopback, a `data:` URI
   *   that is not an image or is over 64 KiB), a MIME type that is not `image/*`, a bad size or theme.
   *
   * @example
   * ```ts
   * import { definePrompt } from "../assembly/served-prompts.ts";
   * const review = definePrompt("review")
   *   .icons([{ src: "https://example.com/review.png", mimeType: "image/png", sizes: ["48x48"] }])
   *   .get(() => "Review this code");
   * ```
   */
  icons(icons: readonly Icon[]): PromptBuilder<TName, TInput, TArgs> {
    return this.#with({ icons: checkIcons(icons, `prompt "${this.#state.name}"`) });
  }

  /**
   * Sets free-form metadata, listed as `_meta`.
   *
   * @param meta The metadata.
   * @returns A new builder.
   */
  meta(meta: Record<string, unknown>): PromptBuilder<TName, TInput, TArgs> {
    return this.#with({ meta: { ...this.#state.meta, ...meta } });
  }

  /**
   * Requires OAuth scopes (MCP 2025-11-25, Authorization, Scope Challenge Handling): a caller whose
   * token lacks one does not see the prompt in `prompts/list`, and getting or completing it answers 403
   * `insufficient_scope` naming what it needs, so the client can ask for more (step-up).
   *
   * @param scopes The scopes, all required.
   * @returns A new builder.
   * @throws {TypeError} For an empty or malformed scope (RFC 6749 §3.3: printable ASCII, no space, `"` or `\`).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { definePrompt } from "../../mod.ts";
   * const audit = definePrompt("audit").scopes("admin").get(() => "Review the audit log");
   * assert.deepEqual(audit.scopes, ["admin"]);
   * ```
   */
  scopes(...scopes: string[]): PromptBuilder<TName, TInput, TArgs> {
    return this.#with({
      scopes: checkScopes([...(this.#state.scopes ?? []), ...scopes], `prompt "${this.#state.name}"`),
    });
  }

  /**
   * Finishes the prompt with its handler.
   *
   * @param handler Receives the validated arguments and the call context; returns a string, messages
   *   or a complete result.
   * @returns The prompt.
   * @throws {TypeError} When the handler is not a function or a completer names an unknown argument.
   */
  get(handler: PromptHandler<TArgs>): Prompt<TName, TInput, TArgs> {
    const s = this.#state;
    if (typeof handler !== "function") throw new TypeError(`prompt "${s.name}": the handler must be a function`);
    const names = s.arguments.map((a) => a.name);
    const prompt: AnyPrompt = {
      name: s.name,
      title: s.title,
      description: s.description,
      arguments: Object.freeze(s.arguments.map((a) => Object.freeze({ ...a }))),
      args: s.args,
      completers: freezeCompleters(s.completers, names, `prompt "${s.name}"`),
      meta: s.meta,
      ...(s.icons === undefined ? {} : { icons: s.icons }),
      ...(s.scopes === undefined ? {} : { scopes: s.scopes }),
      get: handler as PromptHandler<unknown>,
      features: s.servedBy,
    };
    return Object.freeze(prompt) as Prompt<TName, TInput, TArgs>;
  }
}

/** Lists the arguments of an object schema, checking that each is a string. */
function argumentsOf(args: CompiledSchema, where: string): PromptArgument[] {
  const schema = args.jsonSchema;
  if (schema.type !== "object") throw new TypeError(`${where}: the schema must describe an object (type "object")`);
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.entries(properties).map(([name, property]) => {
    const type = property?.type;
    const stringEnum = Array.isArray(property?.enum) &&
      (property.enum as unknown[]).every((x) => typeof x === "string");
    if (type !== "string" && !(type === undefined && (stringEnum || property?.const !== undefined))) {
      throw new TypeError(`${where}: property "${name}" must be a string (MCP prompt arguments are strings)`);
    }
    const argument: PromptArgument = { name };
    if (typeof property.title === "string") argument.title = property.title;
    if (typeof property.description === "string") argument.description = property.description;
    argument.required = required.includes(name);
    return argument;
  });
}

/**
 * Starts the definition of a prompt served by `servedBy`: the wire-free builder behind the public
 * `definePrompt()` (`src/assembly/served-prompts.ts`), which names the bindings' features that serve prompts.
 *
 * @param name The prompt name: 1–128 characters of `[A-Za-z0-9_./-]`.
 * @param servedBy The features that serve it (`src/core/definitions/feature.ts`).
 * @returns A fluent builder.
 * @throws {TypeError} When the name is invalid.
 */
export function promptBuilder<TName extends string>(name: TName, servedBy: readonly Feature[]): PromptBuilder<TName> {
  assertPromptName(name);
  return new PromptBuilder<TName>({ name, arguments: [], servedBy });
}
