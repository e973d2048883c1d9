/**
 * The preview host's half of MCP Apps (SEP-1865, Lifecycle), run in the preview page: it answers the view's
 * `ui/initialize`, sends the tool's input and result, carries the view's `tools/call` and `resources/*` requests to
 * the CLI's `/rpc` endpoint, shows `ui/message`, `ui/open-link`, context updates and logs beside the view, and tears
 * the view down (`ui/resource-teardown`) from the page's button or when it asks. This function is serialised into
 * the page (`String(hostMain)`): it must use nothing from outside its body.
 *
 * @module
 */

/** What the page is told about its session. */
export interface HostConfig {
  /** The secret every `/rpc` request carries (another page on the machine cannot call the tools). */
  readonly token: string;
  /** The tool, as listed. */
  readonly tool: Record<string, unknown>;
  /** Its arguments. */
  readonly args: Record<string, unknown>;
  /** The host's name and version. */
  readonly hostInfo: { name: string; version: string };
  /** The revision of the view protocol. */
  readonly protocolVersion: string;
}

/**
 * The page's script. Browser globals are reached through `globalThis`, untyped: the CLI is
 * type-checked without the DOM library.
 *
 * @param config The session.
 */
export function hostMain(config: HostConfig): void {
  const g = globalThis as any;
  const doc = g.document;
  const byId = (id: string) => doc.getElementById(id);
  const iframe = byId("view");
  const events = byId("events");
  const note = (kind: string, value: unknown) => {
    const item = doc.createElement("li");
    item.textContent = `${kind}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
    events.appendChild(item);
  };
  const rpc = async (method: string, params: unknown) => {
    const response = await fetch("/rpc", {
      method: "POST",
      headers: { "content-type": "application/json", "x-preview-token": config.token },
      body: JSON.stringify({ method, params }),
    });
    const body = await response.json();
    if (body.error) throw body.error;
    return body.result;
  };
  const post = (message: Record<string, unknown>) =>
    iframe.contentWindow?.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const dark = g.matchMedia?.("(prefers-color-scheme: dark)")?.matches === true;
  const context: Record<string, unknown> = {
    toolInfo: { tool: config.tool },
    theme: dark ? "dark" : "light",
    displayMode: "inline",
    availableDisplayModes: ["inline", "fullscreen"],
    containerDimensions: { maxHeight: 6000 },
    locale: g.navigator?.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: "web",
    userAgent: "mcplite preview",
  };
  const setMode = (mode: string) => {
    doc.body.classList.toggle("fullscreen", mode === "fullscreen");
    context.displayMode = mode;
    post({ method: "ui/notifications/host-context-changed", params: { displayMode: mode } });
    return { mode };
  };
  const handlers: Record<string, (params: any) => unknown> = {
    "ui/initialize": () => ({
      protocolVersion: config.protocolVersion,
      hostInfo: config.hostInfo,
      hostCapabilities: {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {}, structuredContent: {} },
      },
      hostContext: context,
    }),
    ping: () => ({}),
    "tools/call": (params) => rpc("tools/call", params),
    "resources/read": (params) => rpc("resources/read", params),
    "resources/list": (params) => rpc("resources/list", params),
    "resources/templates/list": (params) => rpc("resources/templates/list", params),
    "ui/open-link": (params) => {
      note("open-link", params.url);
      g.open(String(params.url), "_blank", "noopener,noreferrer");
      return {};
    },
    "ui/message": (params) => {
      note("message", params.content);
      return {};
    },
    "ui/update-model-context": (params) => {
      byId("context").textContent = JSON.stringify(params, null, 2);
      return {};
    },
    "ui/request-display-mode": (params) => setMode(params.mode === "fullscreen" ? "fullscreen" : "inline"),
  };
  let started = false;
  const start = async () => {
    if (started) return; // the host sends nothing before `initialized`, and the input once
    started = true;
    post({ method: "ui/notifications/tool-input", params: { arguments: config.args } });
    try {
      const result = await rpc("host/call", {});
      byId("result").textContent = JSON.stringify(result, null, 2);
      post({ method: "ui/notifications/tool-result", params: result });
    } catch (error: any) {
      byId("result").textContent = `error: ${error?.message ?? error}`;
      post({ method: "ui/notifications/tool-cancelled", params: { reason: String(error?.message ?? error) } });
    }
  };
  const pending = new Map<number, (message: any) => void>();
  g.addEventListener("message", async (event: any) => {
    if (event.source !== iframe.contentWindow) return; // only the view's frame speaks to the host
    const message = event.data;
    if (message === null || typeof message !== "object" || message.jsonrpc !== "2.0") return;
    if (typeof message.method !== "string") return pending.get(message.id)?.(message);
    if (message.id === undefined) {
      if (message.method === "ui/notifications/initialized") void start();
      else if (message.method === "ui/notifications/size-changed" && typeof message.params?.height === "number") {
        iframe.style.height = `${message.params.height}px`;
      } else if (message.method === "notifications/message") note(`log ${message.params?.level}`, message.params?.data);
      else if (message.method === "ui/notifications/request-teardown") {
        note("request-teardown", "the view asked to close");
        teardown("the view asked to close");
      }
      return;
    }
    const handler = handlers[message.method];
    if (handler === undefined) {
      return post({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
    }
    try {
      post({ id: message.id, result: await handler(message.params ?? {}) });
    } catch (error: any) {
      post({ id: message.id, error: { code: error?.code ?? -32603, message: String(error?.message ?? error) } });
    }
  });
  let tornDown = false;
  const teardown = (reason: string) => {
    if (tornDown) return;
    tornDown = true;
    // SEP-1865, Cleanup: ask the view first, and remove it once it answered (or after a second). A
    // view's `ui/notifications/request-teardown` asks the host to do this; the host decides, and does.
    const id = 1e9 + Math.floor(Math.random() * 1e6);
    const remove = () => {
      pending.delete(id);
      iframe.remove();
      note("teardown", "view removed");
    };
    pending.set(id, remove);
    post({ id, method: "ui/resource-teardown", params: { reason } });
    setTimeout(() => pending.has(id) && remove(), 1000);
  };
  byId("teardown").onclick = () => teardown("closed in the preview");
  iframe.src = "/view";
}
