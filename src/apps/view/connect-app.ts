/**
 * `connectApp()`: the view's half of MCP Apps (SEP-1865, Communication Protocol). It opens the
 * `ui/initialize` → `ui/notifications/initialized` handshake with the host, hands the view the tool's
 * input and result as they come, carries its `tools/call` and `resources/read` to the server through
 * the host, and reports the view's size as it changes.
 *
 * @module
 */
import { UI_PROTOCOL_VERSION } from "../../internal/mcp-apps-wire.ts";
import { view as viewGlobals, type ViewGlobals } from "./browser.ts";
import { applyHostStyles } from "./host-styles.ts";
import { openRpc } from "./rpc.ts";
import type {
  ConnectAppOptions,
  DisplayMode,
  HostCapabilities,
  HostContext,
  ViewApp,
  ViewToolName,
  ViewToolResult,
} from "./view-types.ts";

type Listeners = Map<string, Set<(value: unknown) => void>>;

/**
 * Connects a view to its host. Call it once, when the view's script starts; type it with the server
 * and the tool the view shows, and its results and calls are typed end to end.
 *
 * @typeParam S The server type (`typeof server`).
 * @typeParam N The tool whose results the view shows.
 * @param options The view's name and version, its display modes, resizing.
 * @returns The connected view, once the host answered `ui/initialize`.
 * @throws {HostError} When the host refuses `ui/initialize` or does not answer in time.
 *
 * @example
 * ```ts ignore
 * import { connectApp } from "@mcplite/sdk/apps/view";
 * import type { server } from "./server.ts";
 *
 * const app = await connectApp<typeof server, "forecast">({ name: "Forecast", version: "1.0.0" });
 * app.applyHostStyles();
 * app.onToolResult(({ structuredContent }) => render(structuredContent?.days ?? []));
 * button.onclick = async () => render((await app.callTool("refresh_forecast", { city: "Oslo" })).structuredContent?.days ?? []);
 * ```
 */
export async function connectApp<S = unknown, N extends ViewToolName<S> = ViewToolName<S>>(
  options: ConnectAppOptions,
): Promise<ViewApp<S, N>> {
  const globals = (options.globals ?? viewGlobals()) as ViewGlobals;
  const listeners: Listeners = new Map();
  const latest = new Map<string, unknown>(); // replayed to late subscribers
  const emit = (name: string, value: unknown) => {
    latest.set(name, value);
    for (const handler of listeners.get(name) ?? []) handler(value);
  };
  const on = (name: string, handler: (value: never) => void, replay = true): () => void => {
    const set = listeners.get(name) ?? new Set();
    listeners.set(name, set);
    set.add(handler as (value: unknown) => void);
    if (replay && latest.has(name)) (handler as (value: unknown) => void)(latest.get(name));
    return () => set.delete(handler as (value: unknown) => void);
  };
  const teardown = new Set<() => void | Promise<void>>();
  let context: HostContext = {};
  let styled = false;

  const rpc = openRpc(
    globals,
    (method) =>
      method === "ui/resource-teardown"
        ? async () => void await Promise.all([...teardown].map((handler) => handler()))
        : method === "ping"
        ? () => ({})
        : undefined,
    (method, params) => {
      switch (method) {
        case "ui/notifications/tool-input":
          return emit("input", params.arguments ?? {});
        case "ui/notifications/tool-input-partial":
          return emit("partial", params.arguments ?? {});
        case "ui/notifications/tool-result":
          return emit("result", params);
        case "ui/notifications/tool-cancelled":
          return emit("cancelled", params.reason);
        case "ui/notifications/host-context-changed":
          context = { ...context, ...params };
          if (styled) applyHostStyles(globals, params as HostContext);
          return emit("context", params);
      }
    },
  );

  const init = await rpc.request("ui/initialize", {
    appInfo: { name: options.name, version: options.version },
    appCapabilities: { availableDisplayModes: options.displayModes ?? ["inline"] },
    protocolVersion: UI_PROTOCOL_VERSION,
  }, options.timeoutMs ?? 10_000);
  context = (init.hostContext ?? {}) as HostContext;
  rpc.notify("ui/notifications/initialized");
  const stopResize = options.autoResize === false ? () => {} : reportSize(globals, rpc.notify);

  const done = async (method: string, params: Record<string, unknown>) => void await rpc.request(method, params);
  return {
    hostInfo: init.hostInfo as { name: string; version: string },
    hostCapabilities: (init.hostCapabilities ?? {}) as HostCapabilities,
    get hostContext() {
      return context;
    },
    onToolInput: (handler) => on("input", handler),
    onToolInputPartial: (handler) => on("partial", handler),
    onToolResult: (handler) => on("result", handler),
    onToolCancelled: (handler) => on("cancelled", handler),
    onHostContextChanged: (handler) => on("context", handler, false),
    onTeardown(handler) {
      teardown.add(handler);
      return () => teardown.delete(handler);
    },
    callTool: (name, args) =>
      rpc.request("tools/call", { name, arguments: args }) as unknown as Promise<ViewToolResult<never>>,
    readResource: (uri) => rpc.request("resources/read", { uri }) as Promise<{ contents: Record<string, unknown>[] }>,
    sendMessage: (message) =>
      done("ui/message", {
        role: "user",
        content: typeof message === "string" ? [{ type: "text", text: message }] : message,
      }),
    openLink: (url) => done("ui/open-link", { url }),
    updateModelContext: (update) => done("ui/update-model-context", update),
    requestDisplayMode: async (mode) => (await rpc.request("ui/request-display-mode", { mode })).mode as DisplayMode,
    log: (level, data) => rpc.notify("notifications/message", { level, data }),
    applyHostStyles() {
      styled = true;
      applyHostStyles(globals, context);
    },
    close() {
      stopResize();
      rpc.close();
    },
  };
}

/**
 * Sends `ui/notifications/size-changed` whenever the document's size changes (SEP-1865: "using
 * ResizeObserver"), once per change, and once at the start.
 */
function reportSize(globals: ViewGlobals, notify: (method: string, params: Record<string, unknown>) => void) {
  const Observer = globals.ResizeObserver;
  if (Observer === undefined) return () => {};
  const root = globals.document.documentElement;
  let last = "";
  const observer = new Observer(() => {
    const { width, height } = root.getBoundingClientRect();
    const size = { width: Math.ceil(width), height: Math.ceil(height) };
    const key = `${size.width}x${size.height}`;
    if (key === last) return;
    last = key;
    notify("ui/notifications/size-changed", size);
  });
  observer.observe(root);
  return () => observer.disconnect();
}
