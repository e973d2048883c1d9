/**
 * `definePrompt()`, served: the wire-free prompt builder (`src/prompt/`) given the features of the
 * bindings that serve prompts (MCP's `prompts/*` methods, MCP-lite's `/prompts` endpoints). The
 * definition declares what it is; this file, as `createServer()` does for bindings, wires it to what
 * serves it, so a server that defines no prompt does not load or bundle that code (`src/core/definitions/feature.ts`).
 *
 * @module
 */
import { PROMPTS_ON_MCP } from "../bindings/mcp/prompts.ts";
import { PROMPTS_ON_LITE } from "../bindings/mcplite/prompts.ts";
import { type PromptBuilder, promptBuilder } from "../prompt/define-prompt.ts";

/** What serves a prompt: the MCP methods and the MCP-lite endpoints for prompts. */
const SERVED_BY = [PROMPTS_ON_MCP, PROMPTS_ON_LITE];

/**
 * Starts the definition of a prompt.
 *
 * @param name The prompt name: 1–128 characters of `[A-Za-z0-9_./-]`.
 * @returns A fluent builder.
 * @throws {TypeError} When the name is invalid.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { definePrompt } from "./served-prompts.ts";
 *
 * const review = definePrompt("code_review")
 *   .describe("Asks for a review of some code")
 *   .args(v.object({ code: v.pipe(v.string(), v.description("The code to review")) }))
 *   .get(({ code }) => `Please review this code:\n${code}`);
 * assert.deepEqual(review.arguments, [{ name: "code", description: "The code to review", required: true }]);
 * ```
 */
export function definePrompt<TName extends string>(name: TName): PromptBuilder<TName> {
  return promptBuilder(name, SERVED_BY);
}
