/**
 * Printing a TypeScript type: the small type tree `mcplite types` builds from JSON Schema, written the way
 * `deno fmt` (dprint, 80 columns, 2 spaces) leaves it, so a generated module is format-clean as written.
 *
 * @module
 */

/** A TypeScript type. */
export type TypeNode =
  | { kind: "keyword"; name: "string" | "number" | "boolean" | "null" | "undefined" | "unknown" | "never" }
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "ref"; name: string }
  | { kind: "array"; items: TypeNode }
  | { kind: "tuple"; items: TypeNode[]; optionalFrom: number; rest?: TypeNode }
  | { kind: "object"; properties: PropertyNode[]; index?: TypeNode }
  | { kind: "union"; members: TypeNode[] }
  | { kind: "intersection"; members: TypeNode[] };

/** A property of an object type. */
export interface PropertyNode {
  /** Its name as the JSON has it. */
  name: string;
  /** Whether it may be left out. */
  optional: boolean;
  /** Its type. */
  type: TypeNode;
  /** Its JSDoc lines (description, `@default`, `@deprecated`). */
  doc: string[];
}

/** The width `deno fmt` wraps at by default. */
export const LINE_WIDTH = 80;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as TypeScript spells it: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A JSDoc comment at `indent`, or nothing for no lines; `*\/` in the text cannot close it early. */
export function jsDoc(lines: string[], indent: string): string {
  const text = lines.flatMap((line) => line.split(/\r?\n/)).map((line) => line.replaceAll("*/", "*\\/").trimEnd());
  // dprint keeps one blank line of a run, and none at the ends.
  const blankAfterBlank = (line: string, i: number) => line === "" && (i === 0 || text[i - 1] === "");
  for (let i = text.length - 1; i >= 0; i--) if (blankAfterBlank(text[i], i)) text.splice(i, 1);
  while (text.length > 0 && text.at(-1) === "") text.pop();
  if (text.length === 0) return "";
  if (text.length === 1) return `${indent}/** ${text[0]} */\n`;
  return `${indent}/**\n${
    text.map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`).join("\n")
  }\n${indent} */\n`;
}

/**
 * Prints a type that starts at `column` on a line indented by `indent`, with `tail` characters after it
 * on its last line (`;`, `>`): on one line when it fits, else broken where `deno fmt` breaks it.
 */
export function printType(node: TypeNode, indent: string, column: number, tail = 1): string {
  const flat = flatType(node);
  if (flat !== undefined && column + flat.length + tail <= LINE_WIDTH) return flat;
  switch (node.kind) {
    case "object":
      return printObject(node, indent, column);
    case "union":
    case "intersection": {
      const members = node.members.map((member) => {
        const text = printType(member, indent + "  ", indent.length + 4, 0);
        if (!needsParens(member, node.kind)) return text;
        // A union broken over lines closes its parenthesis on a line of its own.
        return text.startsWith("\n") ? `(${text}\n${indent}  )` : `(${text})`;
      });
      const separator = node.kind === "union" ? "|" : "&";
      // Objects joined stay where they start (`{…} & {…}`); anything else takes a line per member.
      if (node.kind === "intersection" && members.every((text) => text.startsWith("{"))) {
        return node.members.map((member) => printObject(member as ObjectNode, indent, LINE_WIDTH)).join(" & ");
      }
      return members.map((text) => `\n${indent}  ${separator} ${text}`).join("");
    }
    case "array": {
      const items = node.items;
      if (items.kind === "object") return `${printObject(items, indent, column)}[]`;
      const text = printType(items, indent, column + 6, tail + 1);
      return text.startsWith("\n") ? `Array<${text}\n${indent}>` : `Array<${text}>`;
    }
    case "tuple": {
      const inner = indent + "  ";
      const items = tupleItems(node, (item) => printType(item, inner, inner.length + 3, 1));
      return `[\n${items.map((item) => `${inner}${item},\n`).join("")}${indent}]`;
    }
    default:
      return flat ?? "unknown";
  }
}

type ObjectNode = Extract<TypeNode, { kind: "object" }>;

/**
 * An object type at `indent`, one member a line; one with an index signature only is a `Record` when
 * that fits after `column`.
 */
export function printObject(node: ObjectNode, indent: string, column: number): string {
  if (node.properties.length === 0 && node.index !== undefined) {
    const flat = flatType(node.index);
    if (flat !== undefined && column + `Record<string, ${flat}>;`.length <= LINE_WIDTH) {
      return `Record<string, ${flat}>`;
    }
  }
  const inner = indent + "  ";
  const lines: string[] = [];
  for (const property of node.properties) {
    const key = `${propertyKey(property.name)}${property.optional ? "?" : ""}: `;
    const type = printType(property.type, inner, inner.length + key.length);
    lines.push(`${jsDoc(property.doc, inner)}${inner}${type.startsWith("\n") ? key.trimEnd() : key}${type};`);
  }
  if (node.index !== undefined) {
    const key = "[key: string]: ";
    const type = printType(node.index, inner, inner.length + key.length);
    lines.push(`${inner}${type.startsWith("\n") ? key.trimEnd() : key}${type};`);
  }
  return lines.length === 0 ? "{}" : `{\n${lines.join("\n")}\n${indent}}`;
}

/** The type on one line, or `undefined` for one that never goes on one line (an object with members). */
function flatType(node: TypeNode): string | undefined {
  switch (node.kind) {
    case "keyword":
      return node.name;
    case "literal":
      return typeof node.value === "string" ? JSON.stringify(node.value) : String(node.value);
    case "ref":
      return node.name;
    case "object": {
      if (node.properties.length > 0) return undefined;
      if (node.index === undefined) return "{}";
      const index = flatType(node.index);
      return index === undefined ? undefined : `Record<string, ${index}>`;
    }
    case "array": {
      const items = flatType(node.items);
      if (items === undefined) return undefined;
      return simple(node.items) ? `${items}[]` : `Array<${items}>`;
    }
    case "tuple": {
      const items = tupleItems(node, flatType);
      return items.includes(undefined) ? undefined : `[${items.join(", ")}]`;
    }
    case "union":
    case "intersection": {
      const members = node.members.map((member) => {
        const text = flatType(member);
        return text !== undefined && needsParens(member, node.kind) ? `(${text})` : text;
      });
      return members.includes(undefined) ? undefined : members.join(node.kind === "union" ? " | " : " & ");
    }
  }
}

function tupleItems<T>(node: Extract<TypeNode, { kind: "tuple" }>, print: (item: TypeNode) => T): (T | string)[] {
  const items: (T | string)[] = node.items.map((item, i) => {
    const text = print(item);
    return i >= node.optionalFrom && typeof text === "string" ? `${parenthesized(item, text)}?` : text;
  });
  if (node.rest !== undefined) {
    const rest = print(node.rest);
    items.push(typeof rest === "string" ? `...${parenthesized(node.rest, rest)}[]` : rest);
  }
  return items;
}

function parenthesized(node: TypeNode, text: string): string {
  return simple(node) || node.kind === "array" || node.kind === "tuple" ? text : `(${text})`;
}

/** Whether a type needs no parentheses before `[]`. */
function simple(node: TypeNode): boolean {
  return node.kind === "keyword" || node.kind === "literal" || node.kind === "ref";
}

function needsParens(member: TypeNode, within: "union" | "intersection"): boolean {
  return within === "intersection" && member.kind === "union";
}
