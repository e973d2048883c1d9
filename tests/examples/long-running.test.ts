import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { server } from "../../examples/long-running.ts";
import { waitFor } from "../helpers/long-running.ts";
import { post, toolsCall } from "../helpers/request.ts";

async function rpc(name: string, args: unknown) {
  return (await (await server.fetch(post("/mcp-lite/v1/calltools", toolsCall(name, args)))).json()).result;
}

describe("examples/long-running.ts", () => {
  it("answers a job with promises until its report is ready", async () => {
    let result = await rpc("analyze_dataset", { dataset_id: "large_dataset_001" });
    let polls = 0;
    while (result._meta.response_type === "promise" && polls < 10) {
      result = await rpc("redeem", { promise: result._meta.promise_token });
      polls++;
    }
    assert.equal(polls, 2);
    assert.equal(result.structuredContent.rows, 12329);
  });

  it("keeps deferred work's result for redeem", async () => {
    const first = await rpc("crawl_site", { url: "https://example.com" });
    assert.equal(first._meta.response_type, "promise");
    await waitFor(async () =>
      (await rpc("redeem", { promise: first._meta.promise_token }))._meta.response_type === "answer"
    );
    assert.deepEqual((await rpc("redeem", { promise: first._meta.promise_token })).structuredContent, {
      url: "https://example.com",
      pages: 3,
    });
  });
});
