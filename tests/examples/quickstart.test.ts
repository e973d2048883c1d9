import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { server } from "../../examples/quickstart.ts";
import { post, toolsCall } from "../helpers/request.ts";
import { readSse } from "../helpers/sse.ts";

describe("examples/quickstart.ts", () => {
  it("searches, streams and fails on purpose, as the README shows", async () => {
    const search =
      await (await server.fetch(post("/mcp-lite/v1/calltools", toolsCall("search_books", { query: "data" })))).json();
    assert.equal(search.result.structuredContent.hits[0].id, "b2");
    const events = await readSse(
      await server.fetch(post("/mcp-lite/v1/calltools", toolsCall("summarize_catalogue", { decade: 2010 }), {
        accept: "text/event-stream",
      })),
    );
    assert.equal(events.at(-1)?.event, "done");
    assert.match(JSON.parse(events.at(-1)!.data).content[0].text, /Kleppmann/);
    const borrow = await (await server.fetch(post("/mcp-lite/v1/calltools", toolsCall("borrow_book", { id: "b1" }))))
      .json();
    assert.equal(borrow.result._meta.response_type, "failure");
  });
});
