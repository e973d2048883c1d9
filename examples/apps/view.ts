/**
 * The forecast view: connected to its host with `connectApp()`, typed from the server, it shows the
 * `forecast` tool's structured result as a table and a bar chart, and its Refresh button calls the
 * app-only `refresh_forecast` tool through the host.
 */
import { connectApp } from "../../src/apps/view/mod.ts";
import type { ViewToolOutput } from "../../src/apps/view/mod.ts";
import type { server } from "./server.ts";

type Forecast = ViewToolOutput<typeof server, "forecast">;

interface Dom {
  getElementById(id: string): { textContent: string | null; innerHTML: string; disabled?: boolean; onclick?: unknown };
}
const dom = (globalThis as unknown as { document: Dom }).document;
const byId = (id: string) => dom.getElementById(id);

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function render(forecast: Forecast | undefined): void {
  if (forecast === undefined) return;
  byId("title").textContent = `${forecast.city}: ${forecast.days.length} days (version ${forecast.version})`;
  byId("days").innerHTML = "<thead><tr><th>Day</th><th>High °C</th><th>Low °C</th></tr></thead><tbody>" +
    forecast.days.map((d) => `<tr><td>${escape(d.day)}</td><td>${d.high}</td><td>${d.low}</td></tr>`).join("") +
    "</tbody>";
  const max = Math.max(1, ...forecast.days.map((d) => d.high));
  byId("chart").innerHTML = forecast.days.map((d, i) => {
    const h = Math.round((d.high / max) * 80);
    return `<rect x="${i * 40 + 4}" y="${90 - h}" width="30" height="${h}"></rect>` +
      `<text x="${i * 40 + 8}" y="104">${escape(d.day)}</text>`;
  }).join("");
}

const app = await connectApp<typeof server, "forecast">({ name: "Forecast", version: "1.0.0" });
app.applyHostStyles();
let city = "";
app.onToolInput((args) => {
  city = args.city;
  byId("title").textContent = `Forecast for ${city}…`;
});
app.onToolResult((result) => {
  render(result.structuredContent);
  byId("refresh").disabled = false;
});
app.onToolCancelled((reason) => void (byId("status").textContent = `cancelled: ${reason ?? "no reason"}`));
byId("refresh").onclick = async () => {
  byId("status").textContent = "refreshing…";
  try {
    const result = await app.callTool("refresh_forecast", { city });
    render(result.structuredContent);
    byId("status").textContent = `refreshed (version ${result.structuredContent?.version})`;
  } catch (error) {
    byId("status").textContent = `refresh failed: ${(error as Error).message}`;
  }
};
