/**
 * The dev page's own script: lists what the server serves, opens a form for the one picked, calls it
 * and shows progress, partials, logs, the result or the error as they arrive; follows restarts through
 * the server-sent events of `/_dev/events`, keeping the picked item and what was typed in its form
 * (the form itself when its schema did not change; the fields the new schema still has when it did);
 * answers the questions a call asks (elicitation: a form built from the requested schema, or a page to
 * open) while it runs.
 *
 * @module
 */

/** Runs the page; `TOKEN` and `formFor` are defined before it. */
export const PAGE_SCRIPT = String.raw`
const $ = (id) => document.getElementById(id);
let lists = { tools: [], prompts: [], resources: [], resourceTemplates: [] };
let picked;
let form;
let generation = -1;

function section(result) {
  return Array.isArray(result) ? result : result && Array.isArray(result.items) ? result.items : [];
}

async function load() {
  const response = await fetch("/_dev/state", { headers: { "x-dev-token": TOKEN } });
  const state = await response.json();
  lists = {
    tools: state.tools || [],
    prompts: section(state.prompts),
    resources: section(state.resources),
    resourceTemplates: section(state.resourceTemplates),
  };
  showState(state);
  renderLists();
  if (picked) {
    const again = find(picked.kind, picked.key);
    if (!again) { picked = undefined; $("detail").replaceChildren(el("p", { class: "hint", text: "It is gone after the restart." })); }
    else if (JSON.stringify(schemaOf(picked.kind, again)) === JSON.stringify(schemaOf(picked.kind, picked.item))) {
      // The same form: what was typed stays; only what describes it changes.
      picked.item = again;
      const description = document.querySelector("#detail .description");
      if (description) description.textContent = again.description || "";
    } else pick(picked.kind, again, typed());
  }
}

function keyOf(kind, item) {
  return kind === "resource" ? item.uri : kind === "template" ? item.uriTemplate : item.name;
}

function find(kind, key) {
  const all = { tool: lists.tools, prompt: lists.prompts, resource: lists.resources, template: lists.resourceTemplates }[kind];
  return all.find((item) => keyOf(kind, item) === key);
}

function showState(state) {
  const status = $("status");
  status.className = "status " + state.phase;
  status.textContent = state.phase === "ready"
    ? "ready" + (state.startMs !== undefined ? " (started in " + state.startMs + " ms)" : "")
    : state.phase === "starting" ? "restarting…" : "failed to load";
  const failure = $("failure");
  failure.hidden = state.phase !== "failed";
  if (state.failure) {
    $("failure-message").textContent = state.failure.message;
    $("failure-location").textContent = state.failure.location || "";
    $("failure-detail").textContent = state.failure.detail || "";
  }
  if (state.endpoints) {
    $("endpoints").replaceChildren(...state.endpoints.map((e) =>
      el("li", {}, [el("b", { text: e.name + " " }), el("code", { text: location.origin + e.path })])));
  }
}

function renderLists() {
  const group = (id, kind, items) => {
    $(id).replaceChildren(...items.map((item) => {
      const button = el("button", { type: "button", class: "pick", "data-kind": kind, "data-key": keyOf(kind, item),
        text: item.title || item.name || keyOf(kind, item) });
      if (picked && picked.kind === kind && picked.key === keyOf(kind, item)) button.classList.add("picked");
      button.onclick = () => pick(kind, item);
      return el("li", {}, [button]);
    }));
    $(id + "-count").textContent = String(items.length);
  };
  group("tools", "tool", lists.tools);
  group("prompts", "prompt", lists.prompts);
  group("resources", "resource", lists.resources);
  group("templates", "template", lists.resourceTemplates);
}

function schemaOf(kind, item) {
  if (kind === "tool") return item.inputSchema || { type: "object", properties: {} };
  if (kind === "prompt") {
    const properties = {}, required = [];
    for (const arg of item.arguments || []) {
      properties[arg.name] = { type: "string", description: arg.description };
      if (arg.required) required.push(arg.name);
    }
    return { type: "object", properties, required };
  }
  if (kind === "template") {
    const names = [...item.uriTemplate.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => m[1].split(","));
    return { type: "object", properties: Object.fromEntries(names.map((n) => [n.replace(/\*$/, ""), { type: "string" }])),
      required: names.map((n) => n.replace(/\*$/, "")) };
  }
  return { type: "object", properties: {} };
}

/** What the open form holds, to carry into the form a changed schema builds; nothing when it cannot be read. */
function typed() {
  try { return form && form.value() || {}; } catch { return {}; }
}

/** The schema, its top-level fields defaulting to what was typed where the new schema still has them. */
function prefilled(schema, values) {
  if (!values || !schema.properties) return schema;
  const properties = { ...schema.properties };
  for (const [key, value] of Object.entries(values)) {
    if (properties[key] && typeof properties[key] === "object") properties[key] = { ...properties[key], default: value };
  }
  return { ...schema, properties };
}

function pick(kind, item, values) {
  picked = { kind, key: keyOf(kind, item), item };
  renderLists();
  form = formFor(prefilled(schemaOf(kind, item), values));
  const raw = el("textarea", { id: "raw", class: "json", rows: "8", hidden: true });
  const toggle = el("button", { type: "button", id: "raw-toggle", text: "Edit as JSON" });
  toggle.onclick = () => {
    if (raw.hidden) {
      try { raw.value = JSON.stringify(form.value() || {}, null, 2); } catch { raw.value = "{}"; }
      raw.hidden = false; form.element.hidden = true; toggle.textContent = "Back to the form";
    } else { raw.hidden = true; form.element.hidden = false; toggle.textContent = "Edit as JSON"; }
  };
  const submit = el("button", { type: "submit", id: "call", text: kind === "tool" ? "Call" : kind === "prompt" ? "Get" : "Read" });
  const formElement = el("form", { id: "form" }, [form.element, raw, el("div", { class: "actions" }, [submit, toggle])]);
  formElement.onsubmit = (event) => { event.preventDefault(); run(kind, item, raw); };
  $("detail").replaceChildren(
    el("h2", { text: keyOf(kind, item) }),
    el("p", { class: "description", text: item.description || "" }),
    formElement,
    el("div", { id: "output" }, [
      el("progress", { id: "progress", hidden: true }),
      el("p", { id: "progress-text" }),
      el("pre", { id: "partials", hidden: true }),
      el("pre", { id: "logs", hidden: true }),
      el("pre", { id: "result", hidden: true }),
      el("p", { id: "error", class: "error", hidden: true }),
    ]),
  );
}

function expand(template, values) {
  return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_, op, names) =>
    names.split(",").map((n) => encodeURIComponent(String(values[n.replace(/\*$/, "")] ?? ""))).join(","));
}

function show(id, text, append) {
  const node = $(id);
  node.hidden = false;
  node.textContent = append ? node.textContent + text : text;
}

async function run(kind, item, raw) {
  for (const id of ["partials", "logs", "result", "error", "progress"]) { $(id).hidden = true; $(id).textContent = ""; }
  $("progress-text").textContent = "";
  let args;
  try { args = raw.hidden ? form.value() || {} : JSON.parse(raw.value || "{}"); }
  catch (error) { return show("error", String(error.message || error)); }
  const body = kind === "tool" ? { kind, name: item.name, arguments: args }
    : kind === "prompt" ? { kind, name: item.name, arguments: args }
    : { kind: "resource", uri: kind === "template" ? expand(item.uriTemplate, args) : item.uri };
  $("call").disabled = true;
  try {
    const response = await fetch("/_dev/call", { method: "POST", headers: { "x-dev-token": TOKEN, "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += value;
      let end;
      while ((end = buffered.indexOf("\n")) >= 0) {
        event(JSON.parse(buffered.slice(0, end)));
        buffered = buffered.slice(end + 1);
      }
    }
  } catch (error) {
    show("error", String(error.message || error));
  } finally {
    $("call").disabled = false;
  }
}

function event(e) {
  if (e.type === "progress") {
    const bar = $("progress");
    bar.hidden = false;
    if (e.total) { bar.max = e.total; bar.value = e.progress; } else bar.removeAttribute("value");
    $("progress-text").textContent = "progress " + e.progress + (e.total ? "/" + e.total : "") + (e.message ? " " + e.message : "");
  } else if (e.type === "partial") {
    show("partials", (typeof e.partial === "string" ? e.partial : JSON.stringify(e.partial)) + (typeof e.partial === "string" ? "" : "\n"), true);
  } else if (e.type === "log") {
    show("logs", "[" + e.level + "] " + (typeof e.data === "string" ? e.data : JSON.stringify(e.data)) + "\n", true);
  } else if (e.type === "result") {
    const r = e.result || {};
    const texts = Array.isArray(r.content) ? r.content.filter((c) => c.type === "text").map((c) => c.text) : [];
    const shown = r.structuredContent !== undefined ? JSON.stringify(r.structuredContent, null, 2)
      : texts.length ? texts.join("\n") : JSON.stringify(r, null, 2);
    show("result", shown);
    $("result").className = r.isError ? "error" : "ok";
    if (r.isError) show("error", "The tool answered with an error (isError).");
  } else if (e.type === "error") {
    show("error", e.message);
  } else if (e.type === "elicit") {
    ask(e.id, e.request);
  }
}

/**
 * Shows a question the running call asks (MCP elicitation) and posts the answer: a form built from the
 * requested schema, or, in URL mode, the whole URL to open in a new tab (MCP 2025-11-25, Elicitation:
 * URL mode: shown in full, opened only by the user).
 */
function ask(id, request) {
  const fields = request.mode === "url" ? undefined : formFor(request.requestedSchema || { type: "object", properties: {} });
  const box = el("form", { id: "question", class: "question" });
  const answer = async (action) => {
    let content;
    if (action === "accept" && fields) {
      try { content = fields.value() || {}; } catch (error) { return show("error", String(error.message || error)); }
    }
    box.remove();
    await fetch("/_dev/answer", {
      method: "POST",
      headers: { "x-dev-token": TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ id, answer: content === undefined ? { action } : { action, content } }),
    });
  };
  const button = (action, text) => {
    const b = el("button", { type: action === "accept" ? "submit" : "button", id: "question-" + action, text });
    if (action !== "accept") b.onclick = () => answer(action);
    return b;
  };
  const url = request.mode === "url"
    ? el("p", {}, [el("a", { id: "question-url", href: request.url, target: "_blank", rel: "noopener noreferrer", text: request.url })])
    : null;
  box.replaceChildren(
    el("p", { class: "message", text: request.message || "The tool asks:" }),
    url,
    fields ? fields.element : null,
    el("div", { class: "actions" }, [button("accept", request.mode === "url" ? "Open it" : "Send"), button("decline", "Decline"), button("cancel", "Cancel")]),
  );
  box.onsubmit = (event) => {
    event.preventDefault();
    if (request.mode === "url") window.open(request.url, "_blank", "noopener,noreferrer");
    answer("accept");
  };
  $("output").prepend(box);
}

const events = new EventSource("/_dev/events");
events.addEventListener("state", (message) => {
  const state = JSON.parse(message.data);
  showState(state);
  // A failed start keeps the last lists and the picked form: the fix usually brings them back as they were.
  if (state.phase === "ready" && state.generation !== generation) { generation = state.generation; load(); }
});
`;
