/**
 * `toolsFromOpenAPI()` against Prism (`@stoplight/prism-cli` with `--errors`), which refuses with 422 any
 * request that its OpenAPI document does not allow: each encoding the document declares (query styles,
 * form and multipart bodies with Encoding Objects, JSON) is sent so that a third-party validator accepts it.
 * Skips, saying how to install them, when Prism and Node >= 24.18 are missing (`bash .ci/prism.sh`).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, type Server } from "../../../mod.ts";
import type { ToolMap } from "../../../src/server/server.ts";
import { toolsFromOpenAPI } from "../../../src/bindings/openapi/mod.ts";
import { ENCODINGS_DOCUMENT } from "../../helpers/openapi-encodings.ts";
import { PRISM_MISSING, prismCommand, startPrism } from "../../helpers/prism.ts";

const command = await prismCommand();

describe("toolsFromOpenAPI against Prism", { skip: command === undefined && PRISM_MISSING }, () => {
  it("sends every declared encoding in a form Prism validates", { timeout: 90_000 }, async () => {
    const prism = await startPrism(command!, ENCODINGS_DOCUMENT);
    try {
      const server: Server<ToolMap> = createServer({ name: "prism", version: "1.0.0" });
      for (const tool of await toolsFromOpenAPI(ENCODINGS_DOCUMENT, { baseUrl: prism.url })) server.tool(tool);
      const calls: [string, Record<string, unknown>][] = [
        ["createCustomer", {
          email: "ada@example.com",
          metadata: { order_id: "6735" },
          address: { city: "Oslo", line1: "Karl Johans gate 1" },
          expand: ["customer"],
          tags: ["vip", "new"],
        }],
        ["search", {
          ids: ["1", "2"],
          tag: ["a b", "c"],
          words: ["blue", "black"],
          colors: ["blue", "black"],
          point: { x: "1", y: "2" },
          filter: { status: "paid", min: "5" },
          next: "/v1/items?page=2",
        }],
        ["uploadFile", { name: "report.txt", labels: { kind: "doc" } }],
        ["createUser", { email: "ada@example.com", name: "Ada" }],
      ];
      // Not `line_items` (a deepObject array of objects, which OpenAPI leaves undefined: Prism 5.16 reads it
      // as JSON only), nor `note` (an object with no Encoding Object, sent as JSON text per the example of
      // OpenAPI 3.1.0 §4.8.14.4, which Prism reads as form fields), nor a multipart body's JSON part or
      // repeated parts (Prism reads neither as object or array): encoding.test.ts checks those.
      for (const [name, args] of calls) {
        const outcome = await server.call(name, args);
        assert.equal(outcome.kind, "answer", `${name}: ${JSON.stringify(outcome.kind !== "answer" && outcome)}`);
      }
    } finally {
      await prism.close();
    }
  });
});
