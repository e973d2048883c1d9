/**
 * The view is typed end to end from `typeof server`: the tool's input and structured result, and the
 * names and arguments of the tools it calls. Checked by the type checker (`deno test` and `deno check`
 * type-check this file): each `@ts-expect-error` line must be an error, the rest must compile.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { ViewApp, ViewToolOutput } from "../../src/apps/view/mod.ts";
import type { server } from "../../examples/apps/server.ts";

type Forecast = ViewToolOutput<typeof server, "forecast">;

/** Never called: only compiled. */
function typedView(app: ViewApp<typeof server, "forecast">): void {
  app.onToolInput((args) => {
    const city: string = args.city;
    // @ts-expect-error the forecast tool takes no `town`
    void args.town;
    void city;
  });
  app.onToolResult((result) => {
    const days: Forecast["days"] | undefined = result.structuredContent?.days;
    const high: number | undefined = days?.[0].high;
    // @ts-expect-error a day has no `rain`
    void days?.[0].rain;
    void high;
  });
  void app.callTool("refresh_forecast", { city: "Oslo" }).then((result) => {
    const version: number | undefined = result.structuredContent?.version;
    void version;
  });
  // @ts-expect-error the server has no tool named `nope`
  void app.callTool("nope", {});
  // @ts-expect-error refresh_forecast needs a `city` string
  void app.callTool("refresh_forecast", { city: 7 });
}

/** An untyped view accepts any tool and any arguments. */
function untypedView(app: ViewApp): void {
  void app.callTool("anything", { any: "thing" });
}

it("types a view from the server's definitions (checked at compile time)", () => {
  assert.equal(typeof typedView, "function");
  assert.equal(typeof untypedView, "function");
});
