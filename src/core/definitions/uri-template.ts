/**
 * RFC 6570 level-1 URI templates (`test://template/{id}/data`): parsed once at definition, matched
 * against the URIs clients read, expanded when a server needs a concrete URI.
 *
 * @module
 */
import { assertAbsoluteUri } from "./absolute-uri.ts";

/**
 * The variables of a template string, as an object of strings (`{ id: string }` for `test://template/{id}/data`);
 * `keyof` gives their names.
 */
export type UriVariables<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name | keyof UriVariables<Rest>]: string }
  : { [K in never]: string };

/** A parsed level-1 URI template. */
export interface UriTemplate {
  /** The template as written. */
  readonly template: string;
  /** The variable names, in order of appearance. */
  readonly variables: readonly string[];
  /**
   * Matches a URI against the template.
   *
   * @param uri The URI.
   * @returns The decoded variables, or `undefined` when the URI does not match.
   */
  match(uri: string): Record<string, string> | undefined;
  /**
   * Expands the template: each value is percent-encoded except for unreserved characters.
   *
   * @param variables The values.
   * @returns The URI.
   */
  expand(variables: Record<string, string>): string;
}

const VARIABLE = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;

/**
 * Tells whether a string is a URI template (it has a `{`).
 *
 * @param value The string.
 * @returns `true` for a template.
 */
export function isUriTemplate(value: string): boolean {
  return value.includes("{");
}

/**
 * Parses a level-1 template. Only simple `{name}` expressions are accepted: operators (`{+x}`,
 * `{/x}`, `{?x}`…) and modifiers (`{x*}`, `{x:3}`) belong to higher levels.
 *
 * @param template The template.
 * @returns The parsed template.
 * @throws {TypeError} When the template is malformed, repeats a variable or uses a higher level.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseUriTemplate } from "./uri-template.ts";
 * const t = parseUriTemplate("test://template/{id}/data");
 * assert.deepEqual(t.match("test://template/a%20b/data"), { id: "a b" });
 * assert.equal(t.expand({ id: "a b" }), "test://template/a%20b/data");
 * ```
 */
export function parseUriTemplate(template: string): UriTemplate {
  const where = `resource template ${JSON.stringify(template)}`;
  assertAbsoluteUri(template, where);
  const literals: string[] = [];
  const variables: string[] = [];
  let rest = template;
  while (true) {
    const open = rest.indexOf("{");
    const stray = rest.indexOf("}");
    if (stray !== -1 && (open === -1 || stray < open)) throw new TypeError(`${where}: unbalanced "}"`);
    if (open === -1) {
      literals.push(rest);
      break;
    }
    const close = rest.indexOf("}", open);
    if (close === -1) throw new TypeError(`${where}: unbalanced "{"`);
    const name = rest.slice(open + 1, close);
    if (!VARIABLE.test(name)) {
      throw new TypeError(
        `${where}: {${name}} is not a level-1 expression; only {name} with letters, digits, _ and . is supported`,
      );
    }
    if (variables.includes(name)) throw new TypeError(`${where}: variable {${name}} appears twice`);
    literals.push(rest.slice(0, open));
    variables.push(name);
    rest = rest.slice(close + 1);
  }
  if (variables.length === 0) throw new TypeError(`${where}: a template needs at least one {variable}`);
  let source = "^" + escapeRegExp(literals[0]);
  for (let i = 0; i < variables.length; i++) source += "([^/?#]+?)" + escapeRegExp(literals[i + 1]);
  const pattern = new RegExp(source + "$");
  return Object.freeze({
    template,
    variables: Object.freeze(variables),
    match(uri: string): Record<string, string> | undefined {
      const found = pattern.exec(uri);
      if (found === null) return undefined;
      const values: Record<string, string> = {};
      try {
        for (let i = 0; i < variables.length; i++) values[variables[i]] = decodeURIComponent(found[i + 1]);
      } catch {
        return undefined; // malformed percent-encoding
      }
      return values;
    },
    expand(values: Record<string, string>): string {
      let uri = literals[0];
      for (let i = 0; i < variables.length; i++) uri += encodeUnreserved(values[variables[i]] ?? "") + literals[i + 1];
      return uri;
    },
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Percent-encodes everything but RFC 3986 unreserved characters. */
function encodeUnreserved(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}
