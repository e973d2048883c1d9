/**
 * A valibot schema as JSON Schema (draft 2020-12), the JSON Schema each tool lists: what `@valibot/to-json-schema`
 * 1.8.0's `toJsonSchema(schema, { target: "draft-2020-12", errorMode: "throw" })` gives, key for key and in order,
 * without `$schema` (2020-12 is MCP's default dialect, MCP 2025-11-25 "JSON Schema Usage"; some clients reject the
 * key); it throws where that function throws, naming the property (`error.path`). Ours because that library weighed
 * 3.1 KB gzip in every server bundle for this one call; tests/core/valibot-json-schema.test.ts compares the two.
 *
 * @module
 */
import type * as v from "valibot";

/** A valibot schema or pipe action, read by its `type` and the keys that type has. */
// deno-lint-ignore no-explicit-any -- each `case` reads the keys its valibot type has
type Node = any;
type Json = Record<string, Node>;

/** JSON Schema 2020-12 §6.3.3 `pattern` for valibot's actions that check with a fixed regex. */
const PATTERNS: ReadonlySet<string> = new Set(
  "bic cuid2 decimal digits domain emoji hash hexadecimal hex_color isrc iso_time_second iso_week jws_compact ksuid mac mac48 mac64 nanoid octal slug ulid"
    .split(" "),
);

/** JSON Schema 2020-12 Validation §7.3 `format` for valibot's format actions. */
const FORMATS = {
  __proto__: null,
  email: "email",
  rfc_email: "email",
  ipv4: "ipv4",
  ipv6: "ipv6",
  iso_date: "date",
  iso_date_time: "date-time",
  iso_timestamp: "date-time",
  iso_time: "time",
  url: "uri",
  uuid: "uuid",
} as unknown as Record<string, string>;

/**
 * The length actions, on a string or an array: 1 raises the lower bound, 2 lowers the upper one, 4 when the
 * action has a requirement (the bound); `empty` sets the upper bound to 0.
 */
const LENGTHS = {
  __proto__: null,
  min_length: 5,
  max_length: 6,
  length: 7,
  non_empty: 1,
  empty: 0,
} as unknown as Record<string, number>;
/** The number bounds: the key each sets, and whether it is a lower bound. */
const VALUES = {
  __proto__: null,
  min_value: ["minimum", true],
  max_value: ["maximum", false],
  gt_value: ["exclusiveMinimum", true],
  lt_value: ["exclusiveMaximum", false],
} as unknown as Record<string, [string, boolean]>;

/** Throws for what has no JSON Schema form (the common messages are the library's, word for word). */
const fail = (what: string): never => {
  throw new Error(`The ${what} cannot be converted to JSON Schema.`);
};

/** A JSON `const` value: a string, a boolean or a finite number. */
const isConst = (x: unknown): boolean => typeof x == "boolean" || typeof x == "string" || Number.isFinite(x);

/** The stricter of two bounds; a bound that is not a finite number yet is replaced. */
const bound = (current: Node, value: number, lower: boolean): number =>
  !Number.isFinite(current) || (lower ? value > current : value < current) ? value : current;

/** `not` of two restrictions, as `anyOf` of both. */
const not = (json: Json, value: Json) => json.not = json.not !== undefined ? { anyOf: [json.not, value] } : value;

/**
 * Converts a valibot schema to JSON Schema (draft 2020-12, without `$schema`).
 *
 * @param schema The valibot schema (sync or async).
 * @returns The JSON Schema; a lazy schema's target is listed once under `$defs` and referred to by `$ref`.
 * @throws {Error} When a schema or action has no JSON Schema form, the error's `path` naming the property
 *   (`a.b`, `list[]`; `""` for the root).
 */
export function valibotToJsonSchema(schema: v.GenericSchema | v.GenericSchemaAsync): Record<string, unknown> {
  const defs: Json = {};
  const refs = new Map<Node, string>();
  const getters = new Map<Node, Node>();
  // The dotted path being converted (`a.b`, `list[]`): an error's `path` names where it was thrown.
  let at = "";
  const inside = (path: string, s: Node) => {
    const outer = at;
    at = path;
    const json = convert({}, s);
    at = outer;
    return json;
  };

  const convert = (json: Json, s: Node, skipRef?: boolean): Json => {
    const type: string = s.type;
    let id = !skipRef && refs.get(s);
    if (id) {
      json.$ref = `#/$defs/${id}`;
      return json;
    }
    if ("pipe" in s) {
      // A nested pipe is flattened; a second schema in it needs a type mode this conversion does not take.
      const flat = (pipe: Node[]): Node[] => pipe.flatMap((item) => "pipe" in item ? flat(item.pipe) : item);
      flat(s.pipe).forEach((item, index) => {
        if (item.kind === "schema") {
          if (index) {
            fail(`pipe of two schemas`);
          }
          json = convert(json, item, true);
        } else action(json, item);
      });
      return json;
    }
    const each = () => s.options.map((option: Node) => convert({}, option));
    switch (type) {
      case "boolean":
      case "null":
      case "number":
      case "string":
        json.type = type;
        break;
      case "array":
        json.type = type;
        json.items = inside(at + "[]", s.item);
        break;
      case "tuple":
      case "tuple_with_rest":
      case "loose_tuple":
      case "strict_tuple":
        json.type = "array";
        json.prefixItems = s.items.map((item: Node) => convert({}, item));
        json.minItems = s.items.length;
        if (type == "tuple_with_rest") json.items = convert({}, s.rest);
        else if (type == "strict_tuple") json.items = false;
        break;
      case "object":
      case "object_with_rest":
      case "loose_object":
      case "strict_object": {
        json.type = "object";
        const properties: Json = json.properties = {}, required: string[] = json.required = [];
        for (const key in s.entries) {
          const entry = s.entries[key];
          properties[key] = inside(at ? `${at}.${key}` : key, entry);
          if (!/^(exact_optional|nullish|optional)$/.test(entry.type)) required.push(key);
        }
        if (type == "object_with_rest") json.additionalProperties = convert({}, s.rest);
        else if (type == "strict_object") json.additionalProperties = false;
        break;
      }
      case "record":
        json.type = "object";
        json.propertyNames = convert({}, s.key);
        json.additionalProperties = convert({}, s.value);
        if (s.key.type != "string") {
          fail(`"record" schema with a "${s.key.type}" key`);
        }
        break;
      case "any":
      case "unknown":
        break;
      case "never":
        json.not = {};
        break;
      case "nullable":
      case "nullish":
        json.anyOf = [convert({}, s.wrapped), { type: "null" }];
        withDefault(json, s);
        break;
      case "exact_optional":
      case "optional":
      case "undefinedable":
        json = withDefault(convert(json, s.wrapped), s);
        break;
      case "literal":
        if (!isConst(s.literal)) fail(`"literal" schema's value`);
        json.const = s.literal;
        break;
      case "enum":
      case "picklist": {
        const options: unknown[] = s.options;
        if (!options.every((o) => typeof o == "string" || Number.isFinite(o))) {
          fail(`"${type}" schema's options`);
        }
        json.enum = options;
        json.type = options.every((o) => typeof o == "string")
          ? "string"
          : options.every((o) => typeof o == "number")
          ? "number"
          : ["string", "number"];
        break;
      }
      case "union":
        json.anyOf = each();
        break;
      case "variant":
        json.oneOf = each();
        break;
      case "intersect":
        json.allOf = each();
        break;
      case "lazy": {
        let target = getters.get(s.getter);
        if (!target) getters.set(s.getter, target = s.getter(undefined));
        id = refs.get(target);
        if (!id) {
          refs.set(target, id = `${refs.size}`);
          defs[id] = convert({}, target, true);
        }
        json.$ref = `#/$defs/${id}`;
        break;
      }
      default:
        fail(`"${type}" schema`);
    }
    return json;
  };

  let root: Json;
  try {
    root = convert({}, schema);
  } catch (error) {
    throw Object.assign(error as Error, { path: at });
  }
  delete root.$schema; // the library writes its own here, which is left out
  if (refs.size) root.$defs = defs;
  return root;
}

/** Sets a wrapper's default (a function's result for a function), when it has one. */
function withDefault(json: Json, s: Node): Json {
  if (s.default !== undefined) json.default = typeof s.default == "function" ? s.default() : s.default;
  return json;
}

/** Applies one pipe action to the JSON Schema, or throws when it has no JSON Schema form. */
function action(json: Json, a: Node): void {
  const type: string = a.type, r = a.requirement;
  const requirement = () => fail(`"${type}" action's requirement`);
  const unsupported = () => fail(`"${type}" action on type "${json.type}"`);
  const nonNegative = () => (!Number.isInteger(r) || r < 0) && requirement();
  const pattern = (source: string) =>
    json.pattern ? fail(`"${type}" action after another regex action`) : json.pattern = source;
  const escape = () => r.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const examples = (list: unknown) =>
    json.examples = Array.isArray(json.examples) ? [...json.examples, ...list as unknown[]] : list;
  if (PATTERNS.has(type)) return void pattern(r.source);
  if (FORMATS[type]) return void (json.format = FORMATS[type]);
  const length = LENGTHS[type];
  if (length !== undefined) {
    if (length & 4) nonNegative();
    const [min, max] = json.type == "array"
      ? ["minItems", "maxItems"]
      : (json.type != "string" && unsupported(), ["minLength", "maxLength"]);
    if (!length) json[max] = 0;
    if (length & 1) json[min] = bound(json[min], length & 4 ? r : 1, true);
    if (length & 2) json[max] = bound(json[max], r, false);
    return;
  }
  const value = VALUES[type];
  if (value) {
    if (json.type != "number" && json.type != "integer") unsupported();
    if (!Number.isFinite(r)) requirement();
    json[value[0]] = bound(json[value[0]], r, value[1]);
    return;
  }
  switch (type) {
    case "base64":
      json.contentEncoding = "base64";
      break;
    case "description":
      json.description = a.description;
      break;
    case "title":
      json.title = a.title;
      break;
    case "examples":
      examples(a.examples);
      break;
    case "metadata": {
      const { title, description, examples: list } = a.metadata;
      if (typeof title == "string") json.title = title;
      if (typeof description == "string") json.description = description;
      if (Array.isArray(list)) examples(list);
      for (const key of Object.keys(a.metadata)) {
        if (!/^(title|description|examples|__proto__)$/.test(key)) json[key] = a.metadata[key];
      }
      break;
    }
    case "entries":
    case "min_entries":
    case "max_entries":
      nonNegative();
      if (type != "max_entries") json.minProperties = bound(json.minProperties, r, true);
      if (type != "min_entries") json.maxProperties = bound(json.maxProperties, r, false);
      break;
    case "starts_with":
      pattern(`^${escape()}`);
      break;
    case "ends_with":
      pattern(`${escape()}$`);
      break;
    case "includes":
      pattern(escape());
      break;
    case "regex":
      if (r.flags) fail(`"regex" action's flags`);
      pattern(r.source);
      break;
    case "integer":
      json.type = "integer";
      break;
    case "safe_integer":
      json.type = "integer";
      json.minimum = bound(json.minimum, Number.MIN_SAFE_INTEGER, true);
      json.maximum = bound(json.maximum, Number.MAX_SAFE_INTEGER, false);
      break;
    case "multiple_of":
      json.multipleOf = r;
      break;
    case "not_value":
      if (!isConst(r)) requirement();
      not(json, { const: r });
      break;
    case "not_values":
      if (!r.every(isConst)) requirement();
      if (r.length) not(json, { enum: [...new Set(r)] });
      break;
    case "value":
      if (!isConst(r)) requirement();
      if ("const" in json && json.const !== r) {
        fail(`"value" action after another value`);
      }
      json.const = r;
      break;
    case "values": {
      if (!r.every(isConst)) requirement();
      // JSON Schema 2020-12 Validation §6.1.2: the values both restrictions allow; none allowed is `not: {}`.
      let allowed = json.enum ?? r;
      if (json.enum) allowed = allowed.filter((x: unknown) => r.includes(x));
      if (allowed.length) json.enum = [...new Set(allowed)];
      else delete json.enum, not(json, {});
      break;
    }
    default:
      fail(`"${type}" action`);
  }
}
