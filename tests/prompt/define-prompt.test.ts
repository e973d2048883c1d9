import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { definePrompt, text } from "../../mod.ts";
import { ToolCallContext } from "../../src/core/call/tool-call-context.ts";
import { describePrompt, promptResultFromValue } from "../../src/core/definitions/prompt.ts";

const ctx = new ToolCallContext("p", new AbortController().signal, { wire: "in-process", headers: new Headers() });

describe("definePrompt", () => {
  it("lists arguments from a valibot object of strings, with descriptions and requiredness", () => {
    const p = definePrompt("summarise")
      .title("Summarise")
      .describe("Summarises a text")
      .args(v.object({
        text: v.pipe(v.string(), v.description("The text"), v.title("Text")),
        style: v.optional(v.picklist(["short", "long"])),
        lang: v.optional(v.string(), "en"),
      }))
      .get(({ text, style, lang }) => `${text}/${style}/${lang}`);
    assert.deepEqual(describePrompt(p), {
      name: "summarise",
      title: "Summarise",
      description: "Summarises a text",
      arguments: [
        { name: "text", title: "Text", description: "The text", required: true },
        { name: "style", required: false },
        { name: "lang", required: false },
      ],
    });
  });

  it("validates arguments through the schema, defaults included, before the handler", async () => {
    const p = definePrompt("count")
      .args(v.object({ n: v.pipe(v.string(), v.regex(/^\d+$/)), unit: v.optional(v.string(), "apples") }))
      .get(({ n, unit }) => `${Number(n) + 1} ${unit}`);
    const checked = await p.args!.validate({ n: "41" });
    assert.ok(checked.ok);
    assert.equal(await p.get(checked.value, ctx), "42 apples");
    assert.equal((await p.args!.validate({ n: "forty" })).ok, false);
    assert.equal((await p.args!.validate({})).ok, false);
  });

  it("refuses non-string arguments, bad names, unknown completers and non-function handlers", () => {
    assert.throws(() => definePrompt("p").args(v.object({ n: v.number() })), TypeError);
    assert.throws(() => definePrompt("has space"), TypeError);
    assert.throws(() => definePrompt(""), TypeError);
    assert.throws(
      () => definePrompt("p").args(v.object({ a: v.string() })).complete("b" as "a", () => []).get(() => ""),
      TypeError,
    );
    assert.throws(() => definePrompt("p").get(42 as never), TypeError);
  });
});

describe("promptResultFromValue", () => {
  it("accepts a string, a message, messages or a full result", () => {
    assert.deepEqual(promptResultFromValue("hi", "d"), {
      description: "d",
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
    });
    assert.deepEqual(promptResultFromValue({ role: "assistant", content: text("ok") }, undefined), {
      messages: [{ role: "assistant", content: { type: "text", text: "ok" } }],
    });
    assert.deepEqual(promptResultFromValue({ description: "own", messages: [{ role: "user", content: "x" }] }, "d"), {
      description: "own",
      messages: [{ role: "user", content: { type: "text", text: "x" } }],
    });
  });

  it("rejects messages without a valid role or content", () => {
    assert.throws(() => promptResultFromValue([{ role: "system" as "user", content: "x" }], undefined), TypeError);
    assert.throws(() => promptResultFromValue([{ role: "user", content: 42 as never }], undefined), TypeError);
  });
});
