/**
 * MCP Apps: a `forecast` tool whose results a host shows in an interactive view (a table and a chart),
 * whose Refresh button calls the app-only `refresh_forecast` tool. Any other client gets the same
 * tool with a text answer.
 *
 *   deno run -A examples/apps/server.ts          bun run examples/apps/server.ts
 *   deno run -A examples/apps/server.ts --stdio  (MCP over stdio)
 *
 * Then preview the view without a chat host:
 *
 *   deno run -A src/cli/main.ts app http://127.0.0.1:8000 forecast --arg city=Oslo
 */
import * as v from "valibot";
import { createServer, defineTool, serve, text, toolResult } from "../../mod.ts";
import { defineApp, rendersApps } from "../../src/apps/mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";
import { bundleView } from "./bundle.ts";
import { forecastPage } from "./page.ts";

const Forecast = v.object({
  city: v.string(),
  version: v.number(),
  days: v.array(v.object({ day: v.string(), high: v.number(), low: v.number() })),
});
type Forecast = v.InferOutput<typeof Forecast>;

/** The view's page, bundled on first read and kept once built. */
let page: Promise<string> | undefined;

/**
 * The view's page. A bundle that failed (the bundler missing, or its first install cut short) is not kept: its
 * cause goes to the server's log (stderr, also over stdio), the read is refused `unavailable` with a wait, and
 * the next read bundles again.
 */
function viewPage(): Promise<string> {
  return page ??= bundleView(new URL("./view.ts", import.meta.url)).then(forecastPage, (error: unknown) => {
    page = undefined;
    console.error(`The forecast view could not be bundled: ${error instanceof Error ? error.message : error}`);
    throw new ProtocolError(ErrorCode.Unavailable, "The forecast view could not be built; try again", {
      data: { retryAfterMs: 1_000 },
    });
  });
}

/** The view: one HTML document; it may reach only the weather API it names. */
export const forecastView = defineApp("ui://weather/forecast")
  .title("Forecast")
  .describe("The week's temperatures as a table and a chart")
  .html(viewPage)
  .csp({ connectDomains: ["https://api.open-meteo.com"] })
  .prefersBorder();

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
let version = 1;

/** A deterministic made-up forecast (no network in the example). */
function forecastFor(city: string, days: number, at: number): Forecast {
  const seed = [...city].reduce((sum, c) => sum + c.charCodeAt(0), 0);
  return {
    city,
    version: at,
    days: DAYS.slice(0, days).map((day, i) => {
      const high = 10 + ((seed + i * 7 + at) % 15);
      return { day, high, low: high - 4 - (i % 3) };
    }),
  };
}

const summary = (f: Forecast) => `${f.city}: ` + f.days.map((d) => `${d.day} ${d.high}/${d.low}°C`).join(", ");

export const forecast = defineTool("forecast")
  .title("Weather forecast")
  .describe("The forecast for a city: daily highs and lows")
  .input(
    v.object({ city: v.string(), days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7)), 5) }),
  )
  .output(Forecast)
  .annotations({ readOnlyHint: true })
  .ui(forecastView)
  .handle(({ city, days }, ctx) => {
    const result = forecastFor(city, days, version);
    // A host that renders the view shows the numbers; the model still gets them as text.
    const note = rendersApps(ctx.meta) ? " (shown in the forecast view)" : "";
    return toolResult({ content: [text(summary(result) + note)], structuredContent: result });
  });

export const refreshForecast = defineTool("refresh_forecast")
  .describe("Fetches the forecast again (called by the forecast view's Refresh button)")
  .input(v.object({ city: v.string() }))
  .output(Forecast)
  .ui(forecastView, { visibility: ["app"] })
  .handle(({ city }) => forecastFor(city, 5, ++version));

/** The server: both tools (which register the view), on every wire. */
export const server = createServer({ name: "weather", version: "1.0.0" }).tool(forecast).tool(refreshForecast);

if (import.meta.main) {
  const args = (globalThis as { Deno?: { args: string[] } }).Deno?.args ??
    (globalThis as { process?: { argv: string[] } }).process?.argv.slice(2) ?? [];
  if (args.includes("--stdio")) await serveStdio(server).closed;
  else await serve(server);
}
