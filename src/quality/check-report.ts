/**
 * What the tool-quality check reports (`checkTools()`, `mcplite check`): findings by severity, the pairs of tools a
 * picker would confuse, what the list costs in tokens, and the scores of selection cases.
 *
 * @module
 */
import type { ToolInfo } from "../client/transport.ts";

/** How bad a finding is: `error` breaks a client or a budget, `warning` misleads a model, `info` is worth a look. */
export type Severity = "error" | "warning" | "info";

/** The severities, worst first. */
export const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];

/**
 * What a finding is about:
 * - `tool-name`: outside MCP's tool-name rules, or a name model APIs refuse;
 * - `duplicate-name`: two tools of one name;
 * - `description`: a tool's description missing, empty or one word;
 * - `input-schema`: an input schema that is not an object schema;
 * - `parameter-description`, `parameter-type`: an argument without either;
 * - `fixed-set`: a string argument whose description lists its values, without an `enum`;
 * - `required`: an object schema that does not say which of its properties are required;
 * - `output-schema`: an output schema that is not an object schema, or structured content without one;
 * - `confusable`: two tools a picker would mix up ({@link ConfusablePair});
 * - `token-budget`: the list costs more tokens than allowed;
 * - `selection`: a selection case whose tool did not rank first;
 * - `model`: a model lane case chosen wrong, or recorded for another tool list.
 */
export type ToolRule =
  | "tool-name"
  | "duplicate-name"
  | "description"
  | "input-schema"
  | "parameter-description"
  | "parameter-type"
  | "fixed-set"
  | "required"
  | "output-schema"
  | "confusable"
  | "token-budget"
  | "selection"
  | "model";

/** One thing the check found. */
export interface ToolFinding {
  /** How bad it is. */
  readonly severity: Severity;
  /** What it is about. */
  readonly rule: ToolRule;
  /** The tool, when it is about one (a budget is about the list). */
  readonly tool?: string;
  /** Where in the tool (a JSON Pointer into its listing: `/inputSchema/properties/state`), when it is about a part. */
  readonly path?: string;
  /** What is wrong, in a sentence. */
  readonly message: string;
  /** How to fix it. */
  readonly fix: string;
}

/** Why two tools are confusable. */
export type ConfusionReason = "names" | "descriptions" | "arguments";

/** Two tools a picker would mix up. */
export interface ConfusablePair {
  /** The two tools, in list order. */
  readonly tools: readonly [string, string];
  /**
   * Why: `names` of the same words once stemmed (`get_user`, `getUsers`); `descriptions` that, under tool search's
   * ranking, find each other first after their own tool (each scoring at least a quarter of the own tool's score), or
   * one whose first-ranked tool is the other, above its own; and, given with one of those, the same required
   * `arguments`.
   */
  readonly reasons: readonly ConfusionReason[];
  /** The reasons in a sentence. */
  readonly why: string;
  /** What tells them apart: per tool, the words of its name, description and arguments the other lacks (at most 5). */
  readonly apart: Readonly<Record<string, readonly string[]>>;
}

/** The tokenizers counted with: OpenAI's encodings (`o200k_base`: GPT-4o, GPT-4.1, o-series, GPT-5; `cl100k_base`: GPT-4, GPT-3.5). */
export type TokenEncoding = "o200k_base" | "cl100k_base";

/** The encodings a check counts with. */
export const ENCODINGS: readonly TokenEncoding[] = ["o200k_base", "cl100k_base"];

/** The provider formats the list is counted in: `toOpenAITools()`, `toOpenAIResponsesTools()`, `toAnthropicTools()`. */
export type ToolFormat = "openai-chat" | "openai-responses" | "anthropic";

/** What the list costs in one provider's format. */
export interface FormatCost {
  /** The format: the JSON the converter of that name produces, serialized as a request carries it. */
  readonly format: ToolFormat;
  /** The tokens of the whole list. */
  readonly total: number;
  /** Per tool, its share of `total` (its tokens, the separators after it included): they sum to `total`. */
  readonly tools: Readonly<Record<string, number>>;
}

/** What the tool list costs in a model's context. */
export interface TokenCost {
  /** The encoding counted with. */
  readonly encoding: TokenEncoding;
  /** The cost per format. */
  readonly formats: readonly FormatCost[];
}

/**
 * A selection case: a prompt, the tool that should answer it and, optionally, the arguments it should get (partial:
 * those named must match) and the tools that must not be picked.
 */
export interface SelectionCase {
  /** What a user asks. */
  readonly prompt: string;
  /** The tool that should be picked. */
  readonly expect: string;
  /** Arguments the pick should have (a model lane compares them; the offline ranking checks they exist). */
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** Tools that must rank below the expected one (and that a model must not pick). */
  readonly forbid?: readonly string[];
}

/** How one selection case ranked. */
export interface CaseResult {
  /** The case's prompt. */
  readonly prompt: string;
  /** The tool expected. */
  readonly expect: string;
  /** The expected tool's place in the ranking (1: first), or 0 when the prompt does not find it. */
  readonly rank: number;
  /** The first three tools found. */
  readonly top: readonly string[];
  /** The forbidden tools that ranked above the expected one. */
  readonly forbidden: readonly string[];
}

/** A tool found first in place of another, across the cases. */
export interface Confusion {
  /** The tool expected. */
  readonly expect: string;
  /** The tool found first. */
  readonly picked: string;
  /** The prompts it happened on. */
  readonly prompts: readonly string[];
}

/**
 * The selection cases scored by tool search's ranking (BM25F over names, descriptions and arguments): a measure of how
 * separable the descriptions are, not of any model's behaviour.
 */
export interface SelectionScore {
  /** How many cases. */
  readonly cases: number;
  /** The share of cases whose tool ranked first (0 to 1). */
  readonly top1: number;
  /** The share whose tool ranked in the first three. */
  readonly top3: number;
  /** Each case's ranking. */
  readonly results: readonly CaseResult[];
  /** Which tool ranked first in place of which, most frequent first. */
  readonly confusions: readonly Confusion[];
}

/** What a model is asked in the model lane: the prompt and the tools as listed (convert them for your provider). */
export interface ModelRequest {
  /** The case's prompt. */
  readonly prompt: string;
  /** The tools, as listed. */
  readonly tools: readonly ToolInfo[];
}

/** What a model chose: a tool and its arguments, or none. */
export interface ModelChoice {
  /** The tool called. */
  readonly name: string;
  /** Its arguments. */
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/**
 * The model lane: the selection cases asked of a model through a function of yours, its choices recorded to a file so
 * that CI replays them offline. The SDK calls no provider itself.
 */
export interface ModelLane {
  /** The recordings: a JSON file, read and (when `choose` is given) written. */
  readonly recordings: string;
  /**
   * Asks the model; `undefined` when it called no tool. Given, the cases without a recording for this tool list are
   * asked and recorded; left out (CI without a key), only recordings are replayed.
   */
  readonly choose?: (request: ModelRequest) => Promise<ModelChoice | undefined>;
}

/** How one case went in the model lane. */
export interface ModelResult {
  /** The case's prompt. */
  readonly prompt: string;
  /** The tool expected. */
  readonly expect: string;
  /** What the model chose (`null`: no tool); absent when nothing is recorded for this tool list. */
  readonly chosen?: ModelChoice | null;
  /** `asked`: the model was asked now; `recorded`: replayed; `missing`: no recording for this tool list. */
  readonly source: "asked" | "recorded" | "missing";
  /** Whether it chose the expected tool, with the expected arguments, and no forbidden one. */
  readonly passed: boolean;
}

/** The model lane's outcome. */
export interface ModelScore {
  /** The tool list's hash (SHA-256 of its canonical JSON), which keys the recordings. */
  readonly toolList: string;
  /** The share of cases passed, among those with a choice (0 to 1). */
  readonly accuracy: number;
  /** Each case. */
  readonly results: readonly ModelResult[];
  /** The prompts recorded for another tool list only: the list changed since. */
  readonly stale: readonly string[];
}

/** What `checkTools()` found. */
export interface ToolCheckReport {
  /** The tools checked, as listed. */
  readonly tools: readonly string[];
  /** Every finding, worst first. */
  readonly findings: readonly ToolFinding[];
  /** The pairs of tools a picker would confuse (each also a `confusable` finding). */
  readonly confusable: readonly ConfusablePair[];
  /** What the list costs in tokens. */
  readonly tokens: TokenCost;
  /** The selection cases' scores, when cases were given. */
  readonly selection?: SelectionScore;
  /** The model lane's, when one was given. */
  readonly model?: ModelScore;
  /** The worst finding's severity; `undefined` when nothing was found. */
  readonly worst: Severity | undefined;
}
