/**
 * Results shaped for the revision a 2025-era session negotiated. Each revision added to what a result
 * may carry (MCP changelogs): 2025-03-26 audio content and tool annotations; 2025-06-18
 * `structuredContent`, `outputSchema`, resource links and titles. A client of an older revision gets
 * those translated into what it knows (a text block says what it cannot show) or left out, never fields
 * its schema does not define. The 2026-07-28 revision and 2025-06-18 onward get results as they are.
 *
 * @module
 */
import type { ContentBlock, describeTool, ToolResult } from "../../core/mod.ts";

type ToolDescriptor = ReturnType<typeof describeTool>;

/** What a result may carry, by the oldest revision a session speaks. */
export type Shape = "current" | "2025-03-26" | "2024-11-05";

/**
 * Tells what a revision's results may carry.
 *
 * @param protocolVersion The request's revision.
 * @returns `current` for 2025-06-18 and later; else the revision whose shapes apply.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shapeOf } from "./revision.ts";
 * assert.equal(shapeOf("2026-07-28"), "current");
 * assert.equal(shapeOf("2025-03-26"), "2025-03-26");
 * assert.equal(shapeOf("2024-11-05"), "2024-11-05");
 * ```
 */
export function shapeOf(protocolVersion: string): Shape {
  if (protocolVersion >= "2025-06-18") return "current";
  return protocolVersion >= "2025-03-26" ? "2025-03-26" : "2024-11-05";
}

/**
 * Shapes a tool result for a revision: without `structuredContent` before 2025-06-18 (its JSON stays,
 * or is added, as a text block), content blocks translated.
 *
 * @param result The result.
 * @param shape What the revision's results may carry.
 * @returns The result (the same object when nothing changes).
 */
export function toolResultFor(result: ToolResult, shape: Shape): ToolResult {
  if (shape === "current") return result;
  const content = contentFor(result.content, shape);
  const { structuredContent, ...rest } = result;
  if (structuredContent !== undefined) {
    // MCP 2025-06-18, Tools: structured content "SHOULD also" be returned as serialised JSON in a text block.
    const json = JSON.stringify(structuredContent);
    if (!content.some((block) => block.type === "text" && block.text === json)) {
      content.push({ type: "text", text: json });
    }
  }
  return { ...rest, content };
}

/**
 * Translates content blocks a revision does not define: audio (2025-03-26) and resource links
 * (2025-06-18) become text blocks that say what they were.
 *
 * @param blocks The blocks.
 * @param shape What the revision's results may carry.
 * @returns The blocks (a new array when anything changes).
 */
export function contentFor(blocks: ContentBlock[], shape: Shape): ContentBlock[] {
  if (shape === "current") return blocks;
  return blocks.map((block) => {
    if (block.type === "resource_link") {
      const title = block.title ?? block.name;
      return {
        type: "text",
        text: `Resource: ${title} <${block.uri}>${block.description ? ` (${block.description})` : ""}`,
      };
    }
    if (block.type === "audio" && shape === "2024-11-05") {
      return { type: "text", text: `[audio, ${block.mimeType}: this client's MCP revision cannot carry audio]` };
    }
    return block;
  });
}

/**
 * Shapes a tool's descriptor for a revision: no `outputSchema` or `title` before 2025-06-18, no
 * `annotations` before 2025-03-26.
 *
 * @param descriptor The descriptor.
 * @param shape What the revision's lists may carry.
 * @returns The descriptor (the same object when nothing changes).
 */
export function toolDescriptorFor(descriptor: ToolDescriptor, shape: Shape): ToolDescriptor {
  if (shape === "current") return descriptor;
  const { outputSchema: _output, title: _title, annotations, ...rest } = descriptor;
  return shape === "2025-03-26" && annotations !== undefined ? { ...rest, annotations } : rest;
}
