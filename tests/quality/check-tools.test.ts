/**
 * The tool-quality check as a user's test runs it (`checkTools()` of `@mcplite/sdk/testing`), offline: on a server
 * with known confusable pairs, undocumented arguments and a fixed-set string, each is reported with its tool, path and
 * reason, and a clean server has no finding; the token counts per tool sum to the total, which is the tokenizer's own
 * count of the converted list; a budget is an error; tools are called to find structured content without an output
 * schema; a server of grouped, proxied (the official `server-everything` over stdio) and OpenAPI-imported tools is
 * checked as its clients see it; and selection cases report top-1 and top-3 with their confusions.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { countTokens as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { toAnthropicTools, toOpenAIResponsesTools, toOpenAITools } from "../../src/client/mod.ts";
import type { ToolInfo } from "../../src/client/transport.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { checkTools, type ToolFinding } from "../../src/testing/mod.ts";
import { toolsFromOpenAPI } from "../../src/tool/openapi/tools-from-openapi.ts";
import { everythingStdio } from "../proxy/everything-peer.ts";
import { cleanServer, described, messyServer } from "./quality-servers.ts";

const brief = (findings: readonly ToolFinding[]) => findings.map((f) => [f.severity, f.rule, f.tool, f.path]);

describe("checkTools(): findings", () => {
  it("reports the confusable pair, the undocumented arguments and the fixed-set string, each with its tool", async () => {
    const report = await checkTools(messyServer());
    assert.deepEqual(report.tools, ["get_user", "get_users", "list_orders"]);
    assert.deepEqual(brief(report.findings), [
      ["warning", "parameter-description", "get_user", "/inputSchema/properties/id"],
      ["warning", "parameter-description", "get_users", "/inputSchema/properties/id"],
      ["warning", "fixed-set", "list_orders", "/inputSchema/properties/status"],
      ["warning", "confusable", "get_user", undefined],
    ]);
    assert.match(report.findings[2].fix, /enum: \["pending","shipped","delivered"\]/);
    const [pair] = report.confusable;
    assert.deepEqual(pair.tools, ["get_user", "get_users"]);
    assert.deepEqual(pair.reasons, ["names", "descriptions", "arguments"]);
    assert.match(pair.why, /same words.*require the same arguments \(id\)/);
    // Nothing in either tells them apart: "user" and "users" are one word stemmed.
    assert.deepEqual(pair.apart, { get_user: [], get_users: [] });
    assert.equal(report.worst, "warning");
  });

  it("finds nothing on a clean server", async () => {
    const report = await checkTools(cleanServer());
    assert.deepEqual(report.findings, []);
    assert.deepEqual(report.confusable, []);
    assert.equal(report.worst, undefined);
  });

  it("lints what a listing of any server's can hold: names, descriptions, root schemas, references, `required`", async () => {
    const object = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
      type: "object",
      properties,
      required: [],
      ...more,
    });
    const tools = [
      { name: "send mail", description: "Sends an email to someone.", inputSchema: object({}) },
      { name: "crm.contacts.create", description: "Creates a contact in the CRM.", inputSchema: object({}) },
      { name: "ping", inputSchema: object({}) },
      { name: "pong", description: "Pongs", inputSchema: object({}) },
      { name: "raw", description: "Takes any value at all.", inputSchema: { type: "string" } },
      {
        name: "report",
        description: "Builds a sales report for a quarter.",
        inputSchema: object({
          quarter: { $ref: "#/$defs/quarter" },
          region: { type: "string", description: "The sales region (required)" },
          format: { type: "string", enum: ["pdf", "csv"], description: '"pdf" or "csv"' },
          anything: { description: "Whatever else to include" },
        }, { $defs: { quarter: { type: "string", description: "The quarter, as 2026-Q3" } } }),
        outputSchema: { type: "array" },
      },
      { name: "report", description: "Builds a sales report for a quarter.", inputSchema: object({}) },
    ] as ToolInfo[];
    const report = await checkTools(tools, { ignore: ["confusable"] });
    assert.deepEqual(brief(report.findings), [
      ["error", "tool-name", "send mail", "/name"],
      ["error", "input-schema", "raw", "/inputSchema"],
      ["error", "output-schema", "report", "/outputSchema"],
      ["error", "duplicate-name", "report", "/name"],
      ["warning", "description", "ping", "/description"],
      ["warning", "description", "pong", "/description"],
      ["warning", "required", "report", "/inputSchema/properties/region"],
      ["warning", "parameter-type", "report", "/inputSchema/properties/anything"],
      ["info", "tool-name", "crm.contacts.create", "/name"],
    ]);
    assert.match(report.findings.find((f) => f.tool === "pong")!.message, /one word \("Pongs"\)/);
    // Findings can be left out by rule, or by rule and tool.
    const fewer = await checkTools(tools, { ignore: ["confusable", "description:ping", "tool-name"] });
    assert.deepEqual(fewer.findings.map((f) => f.rule).filter((r) => r === "tool-name" || r === "description"), [
      "description",
    ]);
  });

  it("calls the tools it is told to, and reports structured content without an output schema", async () => {
    const server = createServer({ name: "calls", version: "1.0.0" })
      .tool(
        defineTool("weather").describe("Gets the weather of a city today.").input(
          v.object({ city: described("A city") }),
        )
          .handle(({ city }) => ({ city, celsius: 21 })),
      )
      .tool(
        defineTool("forecast").describe("Gets a city's forecast for the week ahead.").input(
          v.object({ city: described("A city") }),
        )
          .output(v.object({ city: v.string(), days: v.array(v.number()) }))
          .handle(({ city }) => ({ city, days: [20, 21] })),
      );
    const report = await checkTools(server, { calls: { weather: { city: "Oslo" }, forecast: { city: "Oslo" } } });
    assert.deepEqual(brief(report.findings), [["warning", "output-schema", "weather", "/outputSchema"]]);
    await assert.rejects(checkTools(server, { calls: { rain: {} } }), /calls names "rain", which is not listed/);
  });
});

describe("checkTools(): token cost", () => {
  it("counts each format with the tokenizer: the tools' counts sum to the total, the tokenizer's count of the list", async () => {
    const server = messyServer();
    const report = await checkTools(server);
    assert.equal(report.tokens.encoding, "o200k_base");
    const listed = (await checkTools(server)).tools.length;
    assert.equal(listed, 3);
    const tools = await import("../../src/client/mod.ts").then(({ createClient }) => createClient(server).listTools());
    const converted = {
      "openai-chat": toOpenAITools(tools),
      "openai-responses": toOpenAIResponsesTools(tools),
      anthropic: toAnthropicTools(tools),
    };
    assert.deepEqual(report.tokens.formats.map((f) => f.format), Object.keys(converted));
    for (const cost of report.tokens.formats) {
      const sum = Object.values(cost.tools).reduce((a, b) => a + b, 0);
      assert.equal(sum, cost.total, cost.format);
      assert.equal(cost.total, countTokens(JSON.stringify(converted[cost.format])), cost.format);
      assert.deepEqual(Object.keys(cost.tools), ["get_user", "get_users", "list_orders"]);
      assert.ok(cost.tools.list_orders > cost.tools.get_users, "the longer tool costs more");
    }
    const older = await checkTools(server, { encoding: "cl100k_base" });
    assert.equal(older.tokens.formats[0].total, cl100k(JSON.stringify(converted["openai-chat"])));
  });

  it("reports a list over the budget as an error, and refuses a budget that is not a positive integer", async () => {
    const report = await checkTools(cleanServer(), { maxTokens: 50 });
    assert.deepEqual(brief(report.findings).map(([severity, rule]) => [severity, rule]), [
      ["error", "token-budget"],
      ["error", "token-budget"],
      ["error", "token-budget"],
    ]);
    assert.match(
      report.findings[0].message,
      /costs \d+ tokens in openai-chat's format \(o200k_base\), over the budget of 50/,
    );
    assert.equal(report.worst, "error");
    assert.deepEqual((await checkTools(cleanServer(), { maxTokens: 100_000 })).findings, []);
    await assert.rejects(checkTools(cleanServer(), { maxTokens: 0 }), TypeError);
    await assert.rejects(
      checkTools(cleanServer(), { encoding: "p50k_base" as "o200k_base" }),
      /encoding is o200k_base or/,
    );
  });
});

describe("checkTools(): a server of grouped, proxied and imported tools", () => {
  it("checks the tools as the server lists them to its clients", { timeout: 60_000 }, async () => {
    const closed = new AbortController(); // ends the stdio child
    const remote = await proxy(everythingStdio, { signal: closed.signal });
    const imported = await toolsFromOpenAPI({
      openapi: "3.1.0",
      info: { title: "pets", version: "1" },
      paths: {
        "/pets": {
          get: {
            operationId: "listPets",
            summary: "Lists the pets",
            parameters: [{ name: "kind", in: "query", schema: { type: "string" } }],
            responses: { "200": { description: "The pets" } },
          },
        },
      },
    }, { baseUrl: "http://127.0.0.1:9/" });
    const server = createServer({ name: "gateway", version: "1.0.0" })
      .group("crm", messyServer())
      .group("everything", remote);
    for (const tool of imported) server.tool(tool);
    try {
      const report = await checkTools(server);
      assert.ok(report.tools.includes("crm.get_user"));
      assert.ok(report.tools.includes("everything.echo"), report.tools.join(", "));
      assert.ok(report.tools.includes("listPets"));
      const about = (tool: string) => report.findings.filter((f) => f.tool === tool).map((f) => [f.rule, f.path]);
      assert.deepEqual(about("crm.list_orders"), [["fixed-set", "/inputSchema/properties/status"], [
        "tool-name",
        "/name",
      ]]);
      // The import lists no `required` where the operation requires nothing: a model is left to guess.
      assert.deepEqual(about("listPets"), [["parameter-description", "/inputSchema/properties/kind"], [
        "required",
        "/inputSchema",
      ]]);
      assert.ok(report.confusable.some((p) => p.tools.join() === "crm.get_user,crm.get_users"));
    } finally {
      closed.abort();
    }
  });
});

describe("checkTools(): selection cases", () => {
  const server = () =>
    createServer({ name: "shop", version: "1.0.0" })
      .tool(
        defineTool("search_products").describe("Searches the catalog for products by words in their name.")
          .input(v.object({ query: described("Words to find") })).handle(() => []),
      )
      .tool(
        defineTool("get_product").describe("Gets one product by its SKU: price, stock and description.")
          .input(v.object({ sku: described("The product's SKU") })).handle(() => ({})),
      )
      .tool(
        defineTool("cancel_order").describe("Cancels an order that has not shipped yet.")
          .input(v.object({ order: described("The order's number") })).handle(() => "cancelled"),
      )
      .tool(
        defineTool("create_order").describe("Places an order for products.")
          .input(v.object({ skus: v.pipe(v.array(v.string()), v.description("What to order")) })).handle(() =>
            "ordered"
          ),
      );

  it("ranks each prompt by tool search's ranking and reports top-1, top-3 and the confusions", async () => {
    const report = await checkTools(server(), {
      cases: [
        { prompt: "find running shoes", expect: "search_products" },
        { prompt: "how much does SKU 123 cost", expect: "get_product", arguments: { sku: "123" } },
        { prompt: "I want to order two mugs", expect: "create_order", forbid: ["cancel_order"] },
        { prompt: "what is in stock", expect: "search_products" }, // its words are get_product's alone
        { prompt: "search for the SKU of the blue mug", expect: "get_product" }, // "search" is the other's action
      ],
    });
    const selection = report.selection!;
    assert.equal(selection.cases, 5);
    assert.equal(selection.top1, 0.6);
    assert.equal(selection.top3, 0.8);
    assert.deepEqual(selection.results.map((r) => [r.expect, r.rank, r.top[0]]), [
      ["search_products", 1, "search_products"],
      ["get_product", 1, "get_product"],
      ["create_order", 1, "create_order"],
      ["search_products", 0, "get_product"], // not found at all
      ["get_product", 2, "search_products"],
    ]);
    assert.deepEqual(selection.confusions, [
      { expect: "search_products", picked: "get_product", prompts: ["what is in stock"] },
      { expect: "get_product", picked: "search_products", prompts: ["search for the SKU of the blue mug"] },
    ]);
    const warned = report.findings.filter((f) => f.rule === "selection");
    assert.deepEqual(brief(warned), [
      ["warning", "selection", "search_products", undefined],
      ["warning", "selection", "get_product", undefined],
    ]);
    assert.match(warned[0].message, /"what is in stock" does not find "search_products" at all/);
    assert.match(warned[1].message, /ranks "get_product" 2nd, after "search_products"/);
  });

  it("reports a forbidden tool ranked above the expected one", async () => {
    const report = await checkTools(server(), {
      cases: [{ prompt: "cancel my order", expect: "create_order", forbid: ["cancel_order"] }],
    });
    assert.deepEqual(report.selection!.results[0].forbidden, ["cancel_order"]);
    assert.match(report.findings.find((f) => f.rule === "selection")!.message, /forbidden: cancel_order/);
  });

  it("reports a case that names a tool or an argument the list does not have as an error, and scores none", async () => {
    const report = await checkTools(server(), {
      cases: [
        { prompt: "find shoes", expect: "search_catalog" },
        { prompt: "get SKU 1", expect: "get_product", arguments: { id: "1" } },
      ],
    });
    assert.equal(report.selection, undefined);
    assert.deepEqual(brief(report.findings.filter((f) => f.rule === "selection")), [
      ["error", "selection", "search_catalog", undefined],
      ["error", "selection", "get_product", "/inputSchema/properties/id"],
    ]);
  });
});
