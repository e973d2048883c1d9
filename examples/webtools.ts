/**
 * Webtools: the same tools as a plain, versioned, pinnable HTTP API (GET to discover, POST to run),
 * beside MCP-lite and MCP on one `fetch`.
 *
 *   deno run -A --unstable-no-legacy-abort examples/webtools.ts      bun run examples/webtools.ts
 *
 * Reads PORT (default 8000) and HOSTNAME (default 127.0.0.1) from the environment, and the optional
 * WEATHER_PROVIDER setting (a server-side value callers can neither see nor change).
 */
import * as v from "valibot";
import { createServer, defineTool, env, mcpBinding, mcpLiteBinding, type Middleware, serve } from "../mod.ts";
import { ErrorCode, ProtocolError, ToolError } from "../src/errors/mod.ts";
import { webtoolsBinding } from "../src/bindings/webtools/mod.ts";

const CITIES: Record<string, { tempC: number; sky: string; next: number[] }> = {
  paris: { tempC: 18, sky: "cloudy", next: [19, 21, 17] },
  oslo: { tempC: 4, sky: "snow", next: [2, 3, 5] },
  lima: { tempC: 24, sky: "sunny", next: [25, 24, 23] },
};

const Units = v.optional(v.picklist(["metric", "imperial"]), "metric");
const convert = (c: number, units: "metric" | "imperial") => (units === "metric" ? c : Math.round(c * 9 / 5 + 32));

function lookup(location: string) {
  const city = CITIES[location.trim().toLowerCase()];
  if (city === undefined) throw new ToolError(`Unknown location "${location}"; try Paris, Oslo or Lima`);
  return city;
}

/** Structured output; `units` is configuration the environment chooses, never the model. */
const current = defineTool("get_current")
  .describe("Current weather for a city")
  .input(v.object({ location: v.pipe(v.string(), v.minLength(1), v.description("City name, e.g. Paris")) }))
  .output(v.object({ location: v.string(), temperature: v.number(), units: v.string(), sky: v.string() }))
  .config(v.object({ units: Units }))
  .handle(({ location }, ctx) => {
    const city = lookup(location);
    return { location, temperature: convert(city.tempC, ctx.config.units), units: ctx.config.units, sky: city.sky };
  });

/** A streaming tool: Webtools has no partials, so the caller gets the whole text at the end. */
const forecast = defineTool("get_forecast")
  .describe("Three-day forecast for a city, one line per day")
  .input(
    v.object({
      location: v.string(),
      days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3)), 3),
    }),
  )
  .config(v.object({ units: Units }))
  .stream(async function* ({ location, days }, ctx) {
    const city = lookup(location);
    for (const [i, tempC] of city.next.slice(0, days).entries()) {
      yield `Day ${i + 1}: ${convert(tempC, ctx.config.units)}°${ctx.config.units === "metric" ? "C" : "F"}\n`;
    }
  });

/** Version 1.0.0 of the tool set, kept for clients that pinned it. */
const currentV1 = defineTool("get_current")
  .describe("Current temperature for a city, in °C")
  .input(v.object({ city: v.string() }))
  .handle(({ city }) => `${city}: ${lookup(city).tempC}°C`);

/** A fixed-window rate limit per caller (by sessionId, else by X-Forwarded-For): 30 calls a minute. */
function rateLimit(limit: number, windowMs: number): Middleware {
  const windows = new Map<string, { start: number; count: number }>();
  return async function rateLimit(call, next) {
    const key = call.ctx.meta.sessionId ?? call.ctx.meta.headers.get("x-forwarded-for") ?? "anonymous";
    const now = Date.now();
    let window = windows.get(key);
    if (window === undefined || now - window.start >= windowMs) windows.set(key, window = { start: now, count: 0 });
    if (++window.count > limit) {
      const retryAfterMs = window.start + windowMs - now;
      throw new ProtocolError(ErrorCode.RateLimited, `Rate limit exceeded: ${limit} calls a minute`, {
        data: { retryAfterMs },
      });
    }
    return await next();
  };
}

export const server = createServer({
  name: "weather",
  version: "2.0.0",
  instructions: "Provides weather information for a few cities",
  settings: { provider: env("WEATHER_PROVIDER") ?? "demo-provider" },
  // Webtools, plus the default MCP-lite and MCP: three wires, one set of tools.
  bindings: [
    webtoolsBinding({ base: "/webtools", versions: [{ version: "1.0.0", tools: [currentV1] }] }),
    mcpLiteBinding(),
    mcpBinding(),
  ],
})
  .config(v.object({ provider: v.string() }))
  .tool(current)
  .tool(forecast)
  .use(rateLimit(30, 60_000));

if (import.meta.main) {
  const listener = await serve(server, { quiet: true }); // the lines below say more
  console.log(`weather webtool listening on ${listener.url}
  metadata  GET  ${listener.url}/webtools/          (latest, 2.0.0)
            GET  ${listener.url}/webtools/1.0.0     (pinned)
  execute   POST ${listener.url}/webtools/          { "action": "get_current", "request": { "location": "Paris" } }
  MCP-lite  POST ${listener.url}/mcp-lite/v1/calltools      MCP  POST ${listener.url}/mcp`);
}
