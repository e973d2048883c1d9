/**
 * A tool result as the REST wires (Webtools, OpenAPI) answer it: its data, or the message of a failure.
 *
 * @module
 */
import type { ToolResult } from "../core/mod.ts";

/**
 * Turns a tool result into the envelope's `data`: the structured content when there is one, else the
 * text (text blocks joined), else `{ content: [...] }` for media blocks; `null` for no content.
 *
 * @param result The tool result.
 * @returns The data.
 */
export function dataFromResult(result: ToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const blocks = result.content;
  if (blocks.length === 0) return null;
  let text = "";
  for (const block of blocks) {
    if (block.type !== "text") return { content: blocks };
    text += block.text;
  }
  return text;
}

/**
 * Returns the message of a failure result: its text blocks joined.
 *
 * @param result The failure result.
 * @returns The message.
 */
export function failureMessage(result: ToolResult): string {
  const texts = result.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
  return texts.length > 0 ? texts.join("\n") : "the tool failed";
}
