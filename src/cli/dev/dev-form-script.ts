/**
 * The dev page's forms, as browser script: a form field for each part of a JSON Schema (2020-12,
 * §10 and the validation vocabulary's `type`, `enum`, `properties`, `items`, local `$ref`s), strings,
 * numbers, booleans, enums, arrays and nested objects; a JSON text area for what a form cannot show
 * (`anyOf`, `oneOf`, free-form objects).
 *
 * @module
 */

/** Defines `formFor(schema)`: `{ element, value() }`, where `value()` throws on a field it cannot read. */
export const FORM_SCRIPT = String.raw`
function el(tag, props, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children || []) if (child) node.append(child);
  return node;
}

function resolveRef(schema, root) {
  let seen = 0;
  while (schema && typeof schema.$ref === "string" && schema.$ref.startsWith("#/") && seen++ < 32) {
    schema = schema.$ref.slice(2).split("/").reduce((node, key) => node && node[key.replace(/~1/g, "/").replace(/~0/g, "~")], root);
  }
  return schema || {};
}

function typeOf(schema) {
  if (Array.isArray(schema.enum)) return "enum";
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object" && !schema.properties) return "json";
  if (type === undefined && schema.properties) return "object";
  return type || "json";
}

function fieldFor(schema, root, path, required) {
  schema = resolveRef(schema, root);
  const type = typeOf(schema);
  const name = path.join(".");
  const initial = schema.default;
  if (type === "object") {
    const fields = Object.entries(schema.properties).map(([key, child]) => {
      const must = (schema.required || []).includes(key);
      const field = fieldFor(child, root, path.concat(key), must);
      const described = resolveRef(child, root);
      return { key, field, row: el("div", { class: "field" }, [
        el("label", { for: "f-" + path.concat(key).join("."), text: key + (must ? " *" : "") }),
        described.description ? el("small", { text: described.description }) : null,
        field.element,
      ]) };
    });
    return {
      element: el(path.length ? "fieldset" : "div", { class: "object" }, fields.map((f) => f.row)),
      value() {
        const out = {};
        for (const { key, field } of fields) {
          const value = field.value();
          if (value !== undefined) out[key] = value;
        }
        return Object.keys(out).length || required || !path.length ? out : undefined;
      },
    };
  }
  if (type === "array") {
    const list = el("div", { class: "items" });
    const items = [];
    const add = (value) => {
      const field = fieldFor(schema.items || {}, root, path.concat(String(items.length)), true);
      const entry = { field };
      const remove = el("button", { type: "button", class: "remove", text: "Remove" });
      const row = el("div", { class: "item" }, [field.element, remove]);
      remove.onclick = () => { items.splice(items.indexOf(entry), 1); row.remove(); };
      if (value !== undefined) field.set?.(value);
      items.push(entry);
      list.append(row);
    };
    const addButton = el("button", { type: "button", class: "add", name: name + ".add", text: "Add item" });
    addButton.onclick = () => add();
    return {
      element: el("div", { class: "array" }, [list, addButton]),
      value: () => items.length || required ? items.map((i) => i.field.value()) : undefined,
    };
  }
  if (type === "boolean" && required) {
    const input = el("input", { type: "checkbox", id: "f-" + name, name, checked: initial === true });
    return { element: input, value: () => input.checked, set: (v) => { input.checked = v === true; } };
  }
  if (type === "enum" || type === "boolean") {
    const choices = type === "boolean" ? [true, false] : schema.enum;
    const select = el("select", { id: "f-" + name, name }, [
      required && initial !== undefined ? null : el("option", { value: "", text: "" }),
      ...choices.map((choice, i) => el("option", {
        value: String(i),
        text: typeof choice === "string" ? choice : JSON.stringify(choice),
        selected: choice === initial,
      })),
    ]);
    return { element: select, value: () => select.value === "" ? undefined : choices[Number(select.value)] };
  }
  if (type === "number" || type === "integer") {
    const input = el("input", { type: "number", id: "f-" + name, name, step: type === "integer" ? "1" : "any",
      min: schema.minimum, max: schema.maximum, value: initial, placeholder: type });
    return {
      element: input,
      value() {
        if (input.value.trim() === "") return undefined;
        const number = Number(input.value);
        if (!Number.isFinite(number)) throw new Error(name + " is not a number");
        return number;
      },
      set: (v) => { input.value = String(v); },
    };
  }
  if (type === "string") {
    const input = el("input", { type: "text", id: "f-" + name, name, value: initial, placeholder: schema.format || "string",
      pattern: schema.pattern, maxlength: schema.maxLength });
    return {
      element: input,
      value: () => input.value === "" && !required ? undefined : input.value,
      set: (v) => { input.value = String(v); },
    };
  }
  const area = el("textarea", { id: "f-" + name, name, class: "json", rows: "3", placeholder: "JSON" });
  if (initial !== undefined) area.value = JSON.stringify(initial, null, 2);
  return {
    element: area,
    value() {
      if (area.value.trim() === "") return undefined;
      try { return JSON.parse(area.value); } catch { throw new Error((name || "the arguments") + " is not valid JSON"); }
    },
    set: (v) => { area.value = JSON.stringify(v, null, 2); },
  };
}

function formFor(schema) {
  return fieldFor(schema || { type: "object", properties: {} }, schema || {}, [], true);
}
`;
