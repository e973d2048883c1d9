/**
 * What a tool list costs in a model's context: the list in each provider's format (the converters' JSON, as a request
 * body carries it) counted with OpenAI's tokenizer (`gpt-tokenizer`, a port of tiktoken's BPE), whole and per tool.
 * Anthropic publishes no tokenizer for its current models: its format is counted with the same encoding, an estimate.
 * Providers add their own framing around the tools (a few hundred tokens of system prompt): not counted.
 *
 * @module
 */
import type { ToolInfo } from "../client/transport.ts";
import { toAnthropicTools, toOpenAIResponsesTools, toOpenAITools } from "../client/tool-shapes.ts";
import type { FormatCost, TokenCost, TokenEncoding, ToolFormat } from "./check-report.ts";

/** An encoding's two operations the count needs. */
interface Encoder {
  /** The text's tokens, one chunk (a piece of the pre-tokenizer's split) at a time. */
  encodeGenerator(text: string): Generator<number[], unknown, undefined>;
  /** The text of tokens. */
  decode(tokens: Iterable<number>): string;
}

/** A tool in a provider's format: its name at the top, or in `function` (Chat Completions). */
type Shaped = { readonly name?: string; readonly function?: { readonly name?: string } };

/** Each format's converter, as `checkTools()` counts it (system tools and view-only tools left out, as a host would). */
const FORMATS: readonly [ToolFormat, (tools: readonly ToolInfo[]) => readonly Shaped[]][] = [
  ["openai-chat", (tools) => toOpenAITools(tools)],
  ["openai-responses", (tools) => toOpenAIResponsesTools(tools)],
  ["anthropic", (tools) => toAnthropicTools(tools)],
];

/**
 * Loads an encoding (the package's data is large: loaded only when a check runs).
 *
 * @param encoding Which one.
 * @returns Its encoder.
 */
async function encoder(encoding: TokenEncoding): Promise<Encoder> {
  return encoding === "cl100k_base"
    ? await import("gpt-tokenizer/encoding/cl100k_base")
    : await import("gpt-tokenizer/encoding/o200k_base");
}

/**
 * Counts a tool list's tokens in each provider's format.
 *
 * @param tools The tools, as listed.
 * @param encoding The encoding.
 * @returns Per format, the total and each tool's share, which sum to the total.
 */
export async function tokenCost(tools: readonly ToolInfo[], encoding: TokenEncoding): Promise<TokenCost> {
  const encode = await encoder(encoding);
  const formats = FORMATS.map(([format, convert]) => formatCost(format, convert(tools), encode));
  return { encoding, formats };
}

/**
 * Counts one format's list: the tokenizer runs once over the whole serialized list (its count is the total), and
 * each chunk it yields counts for the tool its first character belongs to; the list's `[` counts for the first tool,
 * a `,` for the tool before it.
 */
function formatCost(format: ToolFormat, shaped: readonly Shaped[], encode: Encoder): FormatCost {
  if (shaped.length === 0) return { format, total: 0, tools: {} }; // a request with no tools sends none
  const parts = shaped.map((tool) => JSON.stringify(tool));
  const text = `[${parts.join(",")}]`;
  const starts: number[] = []; // where each tool's share begins: after the comma that ends the tool before it
  let at = 1; // past the `[`
  for (const part of parts) {
    starts.push(starts.length === 0 ? 0 : at);
    at += part.length + 1;
  }
  const counts = new Array<number>(parts.length).fill(0);
  let offset = 0;
  let tool = 0;
  let total = 0;
  for (const chunk of encode.encodeGenerator(text)) {
    while (tool + 1 < starts.length && offset >= starts[tool + 1]) tool++;
    counts[tool] += chunk.length;
    total += chunk.length;
    offset += encode.decode(chunk).length;
  }
  const named: Record<string, number> = {};
  shaped.forEach((tool, i) => named[nameOf(tool)] = (named[nameOf(tool)] ?? 0) + counts[i]);
  return { format, total, tools: named };
}

/** A shaped tool's name: Chat Completions nests it in `function`. */
function nameOf(tool: Shaped): string {
  return tool.name ?? tool.function?.name ?? "";
}
