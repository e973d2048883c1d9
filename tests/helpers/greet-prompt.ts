/** The prompt the prompts tests of every wire serve: one argument, described, and a one-line text back. */
import * as v from "valibot";
import { definePrompt } from "../../src/lite/mod.ts";

/** `greet`: "Say hello to {name}." */
export function greetPrompt() {
  return definePrompt("greet")
    .describe("Greets someone")
    .args(v.object({ name: v.pipe(v.string(), v.description("Who to greet")) }))
    .get(({ name }) => `Say hello to ${name}.`);
}
