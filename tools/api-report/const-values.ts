/**
 * The type of a `const` declared `as const`, from its value. `deno doc --json` widens such a declaration's
 * literals (`{ UnknownTool: string }` for `{ UnknownTool: "unknown_tool" } as const`), so a change to a value
 * that goes on the wire (an error code's string) would not show in the report; TypeScript's own type of it is
 * the value, read-only, which this builds as deno doc nodes for render.ts.
 */

// deno doc's JSON is a tree of plain objects whose shape depends on `kind`; `any` keeps the walk short.
// deno-lint-ignore-file no-explicit-any
type Node = any;

/**
 * A variable declaration with its type made from its value when its initializer is an object or array
 * literal followed by `as const` and the value holds only strings, numbers, booleans, `null`, arrays and
 * plain objects; the declaration as it is otherwise.
 *
 * @param name The exported name.
 * @param decl The declaration (deno doc JSON).
 */
export async function withConstValue(name: string, decl: Node): Promise<Node> {
  if (decl.kind !== "variable" || decl.def?.kind !== "const") return decl;
  const { filename, byteIndex } = decl.location;
  const source = new TextDecoder().decode((await Deno.readFile(new URL(filename))).subarray(byteIndex));
  const declared = /^[\w$]+\s*=\s*/.exec(source); // no type annotation: the type is inferred
  if (declared === null || !"{[".includes(source[declared[0].length])) return decl;
  const end = literalEnd(source, declared[0].length);
  if (end === undefined || !/^\s*as\s+const\b/.test(source.slice(end))) return decl;
  const tsType = typeOf((await import(filename))[name]);
  return tsType === undefined ? decl : { ...decl, def: { ...decl.def, tsType } };
}

/** Where the bracketed literal starting at `start` ends (after its closing bracket), skipping strings and comments. */
function literalEnd(source: string, start: number): number | undefined {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < source.length && source[i] !== c; i++) if (source[i] === "\\") i++;
    } else if (c === "/" && source[i + 1] === "/") {
      i = source.indexOf("\n", i);
      if (i < 0) return undefined;
    } else if (c === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i + 2) + 1;
      if (i <= 0) return undefined;
    } else if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") {
      if (--depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** The read-only literal type of a value, as deno doc nodes; `undefined` for a value it cannot be written as. */
function typeOf(value: unknown): Node | undefined {
  switch (typeof value) {
    case "string":
      return { kind: "literal", value: { kind: "string", string: value } };
    case "number":
      return Number.isFinite(value) ? { kind: "literal", value: { kind: "number", number: value } } : undefined;
    case "boolean":
      return { kind: "literal", value: { kind: "boolean", boolean: value } };
    case "object": {
      if (value === null) return { kind: "keyword", value: "null" };
      if (Array.isArray(value)) {
        const items = value.map(typeOf);
        if (items.some((item) => item === undefined)) return undefined;
        return { kind: "typeOperator", value: { operator: "readonly", tsType: { kind: "tuple", value: items } } };
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
      const properties = [];
      for (const [name, item] of Object.entries(value)) {
        const tsType = typeOf(item);
        if (tsType === undefined) return undefined;
        properties.push({ name, readonly: true, tsType });
      }
      return { kind: "typeLiteral", value: { properties } };
    }
    default:
      return undefined;
  }
}
