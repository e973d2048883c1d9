import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serve } from "../../../mod.ts";
import { server } from "../../../examples/webtools.ts";

describe("examples/webtools.ts", () => {
  it("describes, runs, pins and refuses over a real socket, as the README shows", async () => {
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const signal = AbortSignal.timeout(10_000);
    try {
      const url = `${listener.url}/webtools/`;
      const meta = await fetch(url, { signal });
      assert.equal(meta.status, 200);
      const etag = meta.headers.get("etag")!;
      const body = await meta.json();
      assert.deepEqual(body.actions.map((a: { name: string }) => a.name), ["get_current", "get_forecast"]);
      assert.deepEqual(body.defaultConfig, { units: "metric" });
      assert.equal(JSON.stringify(body).includes("provider"), false); // a fixed server setting is never published
      const cached = await fetch(url, { headers: { "if-none-match": etag }, signal });
      assert.equal(cached.status, 304);
      await cached.body?.cancel();

      const post = (payload: unknown) =>
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(payload),
          signal,
        });
      const ok =
        await (await post({ action: "get_current", config: { units: "imperial" }, request: { location: "Paris" } }))
          .json();
      assert.deepEqual(ok, {
        status: "ok",
        data: { location: "Paris", temperature: 64, units: "imperial", sky: "cloudy" },
      });
      const streamed = await (await post({ action: "get_forecast", request: { location: "Oslo", days: 2 } })).json();
      assert.equal(streamed.data, "Day 1: 2°C\nDay 2: 3°C\n");
      const pinned = await (await post({ version: "1.0.0", action: "get_current", request: { city: "Lima" } })).json();
      assert.equal(pinned.data, "Lima: 24°C");
      const unknown = await post({ action: "get_current", request: { location: "Atlantis" } });
      assert.equal(unknown.status, 422);
      assert.match((await unknown.json()).error.message, /Unknown location/);
      const wrongType = await fetch(url, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "{}",
        signal,
      });
      assert.equal(wrongType.status, 415);
      await wrongType.body?.cancel();
    } finally {
      await listener.close();
    }
  });

  it("rate-limits a session after 30 calls a minute", async () => {
    const call = () =>
      server.fetch(
        new Request("http://localhost/webtools/", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ sessionId: "greedy", action: "get_current", request: { location: "Lima" } }),
        }),
      );
    for (let i = 0; i < 30; i++) assert.equal((await call()).status, 200);
    const limited = await call();
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get("retry-after")) > 0);
    assert.equal((await limited.json()).error.code, "RATE_LIMIT");
  });
});
