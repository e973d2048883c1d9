/**
 * `toolsFromOpenAPI()` sends what the document declares, to a local server that records each request:
 * query parameters per style (OpenAPI 3.1.0 §4.8.12.4, the "Style Values" table), form and multipart
 * bodies per their Encoding Objects (§4.8.15), `deepObject` arrays and nesting per the bracket
 * convention (an option); a misspelt argument to a closed form or JSON body is refused, naming the key,
 * with no request sent; an error's nested message becomes the text; long names stay distinct.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer, type Server } from "../../../mod.ts";
import type { ToolMap } from "../../../src/server/server.ts";
import type { Listener } from "../../../src/types.ts";
import { toolsFromOpenAPI, type ToolsFromOpenApiOptions } from "../../../src/bindings/openapi/mod.ts";
import { ENCODINGS_DOCUMENT, type Recorded, recordingServer } from "../../helpers/openapi-encodings.ts";

async function importing(
  baseUrl: string,
  options: Partial<ToolsFromOpenApiOptions> = {},
  document: unknown = ENCODINGS_DOCUMENT,
): Promise<Server<ToolMap>> {
  const server: Server<ToolMap> = createServer({ name: "encodings", version: "1.0.0" });
  for (const tool of await toolsFromOpenAPI(document, { baseUrl, ...options })) server.tool(tool);
  return server;
}

describe("toolsFromOpenAPI sends the encodings the document declares", () => {
  let listener: Listener;
  let seen: Recorded[];
  let server: Server<ToolMap>;
  before(async () => {
    ({ listener, seen } = await recordingServer());
    server = await importing(listener.url);
  });
  after(() => listener.close());

  it("writes a form body's deepObject properties as brackets, arrays indexed, others per their encoding", async () => {
    const outcome = await server.call("createCustomer", {
      email: "ada@example.com",
      metadata: { order_id: "6735", "note key": "a&b" },
      address: { city: "Oslo", line1: "Karl Johans gate 1" },
      line_items: [{ price: "price_1", quantity: 2 }, { price: "price_2", quantity: 1 }],
      expand: ["customer", "invoice"],
      tags: ["vip", "new"],
      note: { text: "hi" },
    });
    assert.equal(outcome.kind, "answer");
    const request = seen.at(-1)!;
    assert.equal(request.contentType, "application/x-www-form-urlencoded");
    assert.deepEqual(request.body.split("&"), [
      "email=ada%40example.com",
      "metadata%5Border_id%5D=6735",
      "metadata%5Bnote%20key%5D=a%26b",
      "address%5Bcity%5D=Oslo",
      "address%5Bline1%5D=Karl%20Johans%20gate%201",
      "line_items%5B0%5D%5Bprice%5D=price_1",
      "line_items%5B0%5D%5Bquantity%5D=2",
      "line_items%5B1%5D%5Bprice%5D=price_2",
      "line_items%5B1%5D%5Bquantity%5D=1",
      "expand%5B0%5D=customer",
      "expand%5B1%5D=invoice",
      "tags=vip%2Cnew", // style form, explode false: `vip,new` once decoded
      "note=%7B%22text%22%3A%22hi%22%7D", // no Encoding Object: an object is its JSON text (§4.8.14.4 example)
    ]);
    // What a form parser reads back: the bracket names Stripe, PHP and Rails expect.
    const parsed = [...new URLSearchParams(request.body)];
    assert.deepEqual(parsed.slice(5, 7), [["line_items[0][price]", "price_1"], ["line_items[0][quantity]", "2"]]);
  });

  it('writes deepObject arrays as empty brackets with deepObjectArrays: "brackets"', async () => {
    const brackets = await importing(listener.url, { deepObjectArrays: "brackets" });
    await brackets.call("createCustomer", { email: "a@b.c", expand: ["customer"], line_items: [{ price: "p" }] });
    assert.deepEqual(decodeURIComponent(seen.at(-1)!.body).split("&"), [
      "email=a@b.c",
      "line_items[][price]=p",
      "expand[]=customer",
    ]);
  });

  it("serializes query parameters per style and explode, as the specification's table shows", async () => {
    await server.call("search", {
      ids: ["1", "2", "3"],
      tag: ["a b", "c"],
      words: ["blue", "black"],
      colors: ["blue", "black"],
      point: { x: "1", y: "2" },
      filter: { status: "paid", min: "5" },
      next: "/v1/items?page=2",
    });
    const url = seen.at(-1)!.url;
    const query = url.slice(url.indexOf("?") + 1);
    assert.deepEqual(query.split("&"), [
      "ids=1,2,3", // form, explode false
      "tag=a%20b", // form, explode true (the default)
      "tag=c",
      "words=blue%20black", // spaceDelimited
      "colors=blue|black", // pipeDelimited
      "point=x,1,y,2", // form object, explode false
      "filter%5Bstatus%5D=paid", // deepObject
      "filter%5Bmin%5D=5",
      "next=/v1/items?page=2", // allowReserved
    ]);
  });

  it("sends a multipart body one part per property, objects as JSON parts, arrays repeated, styled ones as fields", async () => {
    await server.call("uploadFile", {
      name: "report.txt",
      meta: { author: "ada" },
      parts: ["one", "two"],
      labels: { kind: "doc" },
    });
    const request = seen.at(-1)!;
    assert.match(request.contentType!, /^multipart\/form-data; boundary=/);
    const form = await new Response(request.body, { headers: { "content-type": request.contentType! } }).formData();
    assert.equal(form.get("name"), "report.txt");
    assert.deepEqual(form.getAll("parts"), ["one", "two"]);
    assert.equal(form.get("labels[kind]"), "doc");
    assert.match(request.body, /name="meta"\r\nContent-Type: application\/json\r\n\r\n\{"author":"ada"\}\r\n/);
  });

  it("refuses a misspelt argument to a closed form or JSON body, naming the key, and sends nothing", async () => {
    const before = seen.length;
    for (
      const [tool, args] of [
        ["createCustomer", { email: "a@b.c", emial: "a@b.c" }],
        ["createUser", { email: "a@b.c", emial: "a@b.c" }],
        ["uploadFile", { name: "x", nmae: "x" }],
        ["search", { tags: ["a"] }], // parameters only: closed too
      ] as const
    ) {
      await assert.rejects(server.call(tool, args), (error: Error & { code?: string }) => {
        assert.equal(error.code, "invalid_arguments", tool);
        assert.match(error.message, /Unknown argument "(emial|nmae|tags)"/);
        return true;
      });
    }
    assert.equal(seen.length, before, "no request left");
    await server.call("createUser", { email: "a@b.c", name: "Ada" });
    assert.deepEqual(JSON.parse(seen.at(-1)!.body), { email: "a@b.c", name: "Ada" });
  });
});
