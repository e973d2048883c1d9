/**
 * Tool search's tokenizer reads any text in linear time: a tool description of megabytes of capitals
 * (from a proxied remote or an OpenAPI document) is indexed on the first search at once, where a
 * backtracking regular expression took seconds per 100,000 capitals, with the words the regular
 * expressions it replaces gave for every text.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type AnyTool, createServer, defineTool, type Server, toolSearch } from "../../mod.ts";
import { searchTokens, textWords } from "../../src/tool-search/search-tokens.ts";

const MB = 1 << 20;

/** The words as the former regular expressions made them (fine on short texts: quadratic on long capital runs). */
function formerWords(text: string): string[] {
  return text
    .replace(/\b([A-Za-z]{1,4})-([A-Za-z]{1,4})\b/g, "$1-$2 $1$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

/** Lets a test's own timeout fire once a synchronous step is done (its timer is due before this one). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("searchTokens()", () => {
  it("gives the words the former regular expressions gave, for names, prose and generated texts", () => {
    const ordinary = [
      "me.messages.sendMail",
      "HTTPServer getHTTPResponseCode XMLHttpRequest",
      "List the files in my OneDrive, to-do and e-mail sign-in",
      "a-b-c ab-cd-ef abcde-fg x_y-z 1a-b a-b1 é-to /me/drive/root",
      "IPv4Address OAuth2Token ABCDef GETUsers v1.2.3",
    ];
    for (const text of ordinary) assert.deepEqual(textWords(text), formerWords(text), text);
    // Every short text over an alphabet of what the steps look at: letters of both cases, digits, `-`, `_`,
    // separators, and letters beyond ASCII that lower-case to ASCII (the Kelvin sign, `İ`).
    const alphabet = ["a", "b", "A", "B", "Z", "s", "-", "-", "_", "1", " ", ".", "/", "é", "\u212A", "İ", "ab", "AB"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let n = 0; n < 20_000; n++) {
      let text = "";
      for (let length = Math.floor(next() * 12); length > 0; length--) {
        text += alphabet[Math.floor(next() * alphabet.length)];
      }
      assert.deepEqual(textWords(text), formerWords(text), JSON.stringify(text));
    }
  });

  it("keeps its terms: stop words dropped, words for oneself as `me`, stems", () => {
    assert.deepEqual(searchTokens("me.messages.sendMail"), ["me", "messag", "send", "mail"]);
    assert.deepEqual(searchTokens("List the files in my OneDrive"), ["list", "fil", "me", "one", "driv"]);
  });

  // No wall-clock bound but the test's own timeout: 1 MB of capitals took the former expression about
  // 1,000 s, which no machine meets, while a linear scan meets it under load.
  it("reads 1 MB and 2 MB of capitals, in runs and whole", { timeout: 10_000 }, async () => {
    for (const size of [MB, 2 * MB]) {
      assert.deepEqual(searchTokens("A".repeat(size)), ["a".repeat(size)]);
      await tick();
      assert.deepEqual(searchTokens(`${"A".repeat(size)}1`), [`${"a".repeat(size)}1`]);
      await tick();
      assert.deepEqual(searchTokens(`${"A".repeat(size - 1)}b`), ["a".repeat(size - 2), "ab"]);
      await tick();
      const runs = searchTokens(`${"X".repeat(999)}-`.repeat(size / 1000));
      assert.equal(runs.length, Math.floor(size / 1000));
      assert.ok(runs.every((term) => term === "x".repeat(999)));
      await tick();
    }
  });

  it("reads 1 MB of acronyms before words and of short hyphenated words", { timeout: 10_000 }, async () => {
    const acronyms = searchTokens("HTTPServer ".repeat(MB / 11));
    assert.equal(acronyms.length, 2 * Math.floor(MB / 11));
    assert.deepEqual(acronyms.slice(0, 4), ["http", "server", "http", "server"]);
    await tick();
    const hyphenated = searchTokens("sign-in ".repeat(MB / 8));
    assert.equal(hyphenated.length, 2 * (MB / 8)); // sign, signin: `in` is a stop word
    assert.deepEqual(hyphenated.slice(0, 3), ["sign", "signin", "sign"]);
  });

  it("answers the first search over a tool whose description is 1 MB of capitals", { timeout: 10_000 }, async () => {
    const huge = defineTool("remote.Report").describe(`Sends the report\n\n${"A".repeat(MB)}`).handle(() => "sent");
    const mail = defineTool("me.sendMail").describe("Send mail").handle(() => "sent");
    const server = createServer({ name: "s", version: "1.0.0", toolSearch: toolSearch() })
      .tool(huge).tool(mail) as Server<Record<string, AnyTool>>;
    const outcome = await server.call("search_tools", { query: "send the report" });
    assert.ok(outcome.kind === "answer");
    const tools = (outcome.result.structuredContent as { tools: { name: string }[] }).tools;
    assert.equal(tools[0].name, "remote.Report");
  });
});
