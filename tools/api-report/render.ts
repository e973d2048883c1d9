/**
 * Renders `deno doc --json` (format version 2) as TypeScript declarations: one line per signature, no
 * JSDoc prose, no file locations, members in declaration order. The API report is made of these lines, so
 * a change to an exported name, kind or signature shows in review as a changed line.
 */

// deno doc's JSON is a tree of plain objects whose shape depends on `kind`; `any` keeps the walk short.
// deno-lint-ignore-file no-explicit-any
type Node = any;

/** A property or method name as TypeScript writes it: quoted unless it is an identifier. */
function key(name: string, computed?: boolean): string {
  if (computed) return `[${name}]`;
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/** A type, as TypeScript would print it. Unknown kinds fail: a silent gap would hide API changes. */
export function type(t: Node): string {
  const v = t.value;
  switch (t.kind) {
    case "keyword":
      return v;
    case "this":
      return "this";
    case "typeRef":
      return v.typeName + (v.typeParams?.length ? `<${v.typeParams.map(type).join(", ")}>` : "");
    case "union":
      return v.map(type).join(" | ");
    case "intersection":
      return v.map(type).join(" & ");
    case "array":
      return `${wrap(v)}[]`;
    case "tuple":
      return `[${v.map(type).join(", ")}]`;
    case "optional":
      return `${type(v)}?`;
    case "rest":
      return `...${type(v)}`;
    case "parenthesized":
      return `(${type(v)})`;
    case "literal":
      return literal(v);
    case "typeOperator":
      return `${v.operator} ${type(v.tsType)}`;
    case "typeQuery":
      return `typeof ${v}`;
    case "indexedAccess":
      return `${v.readonly ? "readonly " : ""}${wrap(v.objType)}[${type(v.indexType)}]`;
    case "infer":
      return `infer ${typeParam(v.typeParam)}`;
    case "conditional":
      return `${type(v.checkType)} extends ${type(v.extendsType)} ? ${type(v.trueType)} : ${type(v.falseType)}`;
    case "mapped":
      return mapped(v);
    case "fnOrConstructor":
      return `${v.constructor ? "new " : ""}${typeParams(v.typeParams)}(${params(v.params)}) => ${type(v.tsType)}`;
    case "typeLiteral":
      return members(v).length ? `{ ${members(v).join(" ")} }` : "{}";
    case "typePredicate":
      return `${v.asserts ? "asserts " : ""}${v.param.type === "this" ? "this" : v.param.name}` +
        (v.type ? ` is ${type(v.type)}` : "");
    case "importType":
      return `import(${JSON.stringify(v.specifier)})${v.qualifier ? `.${v.qualifier}` : ""}` +
        (v.typeParams?.length ? `<${v.typeParams.map(type).join(", ")}>` : "");
    default:
      throw new Error(`api-report: a type of kind "${t.kind}" (deno doc --json) is not rendered: ${t.repr ?? ""}`);
  }
}

/** An array's element in parentheses when it is a union, function or the like (`(A | B)[]`). */
function wrap(t: Node): string {
  const text = type(t);
  return ["union", "intersection", "fnOrConstructor", "conditional", "typeOperator"].includes(t.kind)
    ? `(${text})`
    : text;
}

function literal(v: Node): string {
  switch (v.kind) {
    case "string":
      return JSON.stringify(v.string);
    case "number":
      return String(v.number);
    case "bigInt":
      return `${v.string}n`;
    case "boolean":
      return String(v.boolean);
    case "template":
      return "`" +
        v.tsTypes.map((part: Node, i: number) =>
          i % 2 === 0 && part.kind === "literal" && part.value.kind === "string"
            ? part.value.string.replaceAll("`", "\\`")
            : "${" + type(part) + "}"
        ).join("") + "`";
    default:
      throw new Error(`api-report: a literal of kind "${v.kind}" is not rendered`);
  }
}

function mapped(v: Node): string {
  const readonly = v.readonlyModifier === true
    ? "readonly "
    : v.readonlyModifier
    ? `${v.readonlyModifier}readonly `
    : "";
  const optional = v.optionalModifier === true ? "?" : v.optionalModifier ? `${v.optionalModifier}?` : "";
  const as = v.nameType ? ` as ${type(v.nameType)}` : "";
  const value = v.tsType ? `: ${type(v.tsType)}` : "";
  return `{ ${readonly}[${v.typeParam.name} in ${type(v.typeParam.constraint)}${as}]${optional}${value} }`;
}

function typeParam(p: Node): string {
  return (p.isConst ? "const " : "") + p.name + (p.constraint ? ` extends ${type(p.constraint)}` : "") +
    (p.default ? ` = ${type(p.default)}` : "");
}

/** `<T extends string = string>`, or nothing. */
export function typeParams(list: Node[] | undefined): string {
  return list?.length ? `<${list.map(typeParam).join(", ")}>` : "";
}

function param(p: Node): string {
  const annotation = (t: Node) => (t ? `: ${type(t)}` : "");
  switch (p.kind) {
    case "identifier":
      return `${p.name}${p.optional ? "?" : ""}${annotation(p.tsType)}`;
    case "rest":
      return `...${param(p.arg)}${annotation(p.tsType)}`;
    case "assign": // a parameter with a default value is optional to the caller
      return `${param({ ...p.left, optional: true })}${p.tsType && !p.left.tsType ? annotation(p.tsType) : ""}`;
    case "array":
      return `[${p.elements.map((e: Node) => (e ? param(e) : "")).join(", ")}]${p.optional ? "?" : ""}` +
        annotation(p.tsType);
    case "object":
      return `{ ${p.props.map((prop: Node) => prop.name ?? prop.key ?? "...").join(", ")} }${p.optional ? "?" : ""}` +
        annotation(p.tsType);
    default:
      throw new Error(`api-report: a parameter of kind "${p.kind}" is not rendered`);
  }
}

/** A parameter list, without the parentheses. */
export function params(list: Node[] | undefined): string {
  return (list ?? []).map(param).join(", ");
}

function signature(f: Node): string {
  return `${typeParams(f.typeParams)}(${params(f.params)})${f.returnType ? `: ${type(f.returnType)}` : ""}`;
}

/** The members of an interface or type literal, each as one line. */
export function members(def: Node): string[] {
  const lines: string[] = [];
  for (const c of def.constructors ?? []) lines.push(`new ${signature(c)};`);
  for (const c of def.callSignatures ?? []) lines.push(`${signature({ ...c, returnType: c.tsType })};`);
  for (const s of def.indexSignatures ?? []) {
    lines.push(`${s.readonly ? "readonly " : ""}[${params(s.params)}]${s.tsType ? `: ${type(s.tsType)}` : ""};`);
  }
  for (const p of def.properties ?? []) {
    const name = key(p.name, p.computed) + (p.optional ? "?" : "");
    lines.push(`${p.readonly ? "readonly " : ""}${name}${p.tsType ? `: ${type(p.tsType)}` : ""};`);
  }
  for (const m of def.methods ?? []) {
    const prefix = m.kind === "getter" ? "get " : m.kind === "setter" ? "set " : "";
    lines.push(`${prefix}${key(m.name, m.computed)}${m.optional ? "?" : ""}${signature(m)};`);
  }
  return lines;
}

/** A class's public and protected members, each as one line (private ones are not API). */
function classMembers(def: Node): string[] {
  const modifiers = (m: Node) =>
    [m.accessibility === "protected" ? "protected" : "", m.isStatic ? "static" : "", m.isAbstract ? "abstract" : ""]
      .filter(Boolean).map((word) => `${word} `).join("");
  const visible = (m: Node) => m.accessibility !== "private" && !String(m.name).startsWith("#");
  const lines: string[] = [];
  for (const c of (def.constructors ?? []).filter(visible)) {
    lines.push(`${modifiers(c)}constructor(${params(c.params)});`);
  }
  for (const s of def.indexSignatures ?? []) {
    lines.push(`${s.readonly ? "readonly " : ""}[${params(s.params)}]${s.tsType ? `: ${type(s.tsType)}` : ""};`);
  }
  for (const p of (def.properties ?? []).filter(visible)) {
    const name = key(p.name, p.computed) + (p.optional ? "?" : "");
    lines.push(`${modifiers(p)}${p.readonly ? "readonly " : ""}${name}${p.tsType ? `: ${type(p.tsType)}` : ""};`);
  }
  const methods = (def.methods ?? []).filter(visible);
  // An overloaded method's implementation signature is not callable from outside (as in a .d.ts).
  const overloaded = new Set(methods.filter((m: Node) => !m.functionDef?.hasBody).map((m: Node) => m.name));
  for (const m of methods.filter((m: Node) => !(overloaded.has(m.name) && m.functionDef?.hasBody))) {
    const prefix = m.kind === "getter" ? "get " : m.kind === "setter" ? "set " : "";
    lines.push(
      `${modifiers(m)}${prefix}${key(m.name, m.computed)}${m.optional ? "?" : ""}${signature(m.functionDef)};`,
    );
  }
  return lines;
}

function block(head: string, lines: string[]): string {
  return lines.length ? `${head} {\n${lines.map((line) => `  ${line}\n`).join("")}}` : `${head} {}`;
}

/** One declaration as TypeScript: `function f(a: string): void;`, `interface I { … }`, `type T = …;`. */
export function declaration(name: string, decl: Node): string {
  const def = decl.def ?? {};
  switch (decl.kind) {
    case "function":
      return `${def.isAsync ? "async " : ""}function${def.isGenerator ? "*" : ""} ${name}${signature(def)};`;
    case "variable":
      return `${def.kind ?? "const"} ${name}${def.tsType ? `: ${type(def.tsType)}` : ""};`;
    case "typeAlias":
      return `type ${name}${typeParams(def.typeParams)} = ${type(def.tsType)};`;
    case "interface": {
      const ext = def.extends?.length ? ` extends ${def.extends.map(type).join(", ")}` : "";
      return block(`interface ${name}${typeParams(def.typeParams)}${ext}`, members(def));
    }
    case "class": {
      const superArgs = def.superTypeParams?.length ? `<${def.superTypeParams.map(type).join(", ")}>` : "";
      const ext = def.extends ? ` extends ${def.extends}${superArgs}` : "";
      const impl = def.implements?.length ? ` implements ${def.implements.map(type).join(", ")}` : "";
      const head = `${def.isAbstract ? "abstract " : ""}class ${name}${typeParams(def.typeParams)}${ext}${impl}`;
      return block(head, classMembers(def));
    }
    case "enum":
      return block(
        `enum ${name}`,
        (def.members ?? []).map((m: Node) => `${key(m.name)}${m.init ? ` = ${type(m.init)}` : ""},`),
      );
    case "namespace":
      return block(
        `namespace ${name}`,
        (def.elements ?? []).flatMap((e: Node) =>
          e.declarations.map((d: Node) => declaration(e.name, d)).join("\n").split("\n")
        ),
      );
    default:
      throw new Error(`api-report: a declaration of kind "${decl.kind}" (${name}) is not rendered`);
  }
}
