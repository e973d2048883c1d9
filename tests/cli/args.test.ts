import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseArgs } from "../../src/cli/args.ts";

describe("the command line", () => {
  it("reads a stdio target after --, with the tool before it", () => {
    const args = parseArgs(["call", "echo", "--arg", "text=hi", "--", "bun", "server.ts", "--port", "0"]);
    assert.equal(args.tool, "echo");
    assert.equal(args.url, undefined);
    assert.deepEqual(args.stdio, { command: "bun", args: ["server.ts", "--port", "0"] });
  });

  it("reads options in --name=value form, headers and timeouts", () => {
    const args = parseArgs(["list", "http://x", "--header=Authorization: Bearer t", "--timeout", "1.5", "--wire=mcp"]);
    assert.deepEqual(args.headers, [["Authorization", "Bearer t"]]);
    assert.equal(args.timeoutMs, 1500);
    assert.equal(args.wire, "mcp");
  });

  it("reads every flag and valued option, repeated ones in order, the last of the others", () => {
    const args = parseArgs([
      "skills",
      "http://x",
      "--json",
      "--login",
      "--client-id=first",
      "--client-id",
      "app-1",
      "--tokens",
      "t.json",
      "--args",
      '{"a":1}',
      "--arg=b=2",
      "--arg",
      "c=3",
      "--resource",
      "doc=a.txt",
      "--resource=img=b.png",
      "--out",
      "dir",
      "get",
      "pdf",
    ]);
    assert.equal(args.json, true);
    assert.equal(args.login, true);
    assert.equal(args.clientId, "app-1");
    assert.equal(args.tokens, "t.json");
    assert.equal(args.argsJson, '{"a":1}');
    assert.deepEqual(args.argPairs, ["b=2", "c=3"]);
    assert.deepEqual(args.resourcePairs, ["doc=a.txt", "img=b.png"]);
    assert.equal(args.out, "dir");
    assert.equal(args.skill, "pdf");
    assert.throws(() => parseArgs(["list", "http://x", "--tokens"]), /--tokens needs a value/);
  });

  it("takes words that name object members (a tool called constructor) as words, not options", () => {
    assert.equal(parseArgs(["call", "http://x", "constructor"]).tool, "constructor");
    assert.equal(parseArgs(["call", "http://x", "toString", "--json"]).tool, "toString");
  });

  it("refuses what it cannot read", () => {
    assert.throws(() => parseArgs(["fetch", "http://x"]), /unknown command "fetch"/);
    assert.throws(() => parseArgs(["list"]), /list needs a target/);
    assert.throws(() => parseArgs(["list", "http://x", "extra"]), /unexpected argument "extra"/);
    assert.throws(() => parseArgs(["list", "--"]), /-- must be followed by the command/);
    assert.throws(() => parseArgs(["list", "http://x", "--wire", "smtp"]), /--wire must be one of/);
    assert.throws(() => parseArgs(["list", "http://x", "--timeout", "soon"]), /--timeout takes seconds/);
  });

  it("reads --redirect-port with --login only, as a port", () => {
    assert.equal(parseArgs(["list", "http://x", "--login", "--redirect-port", "8976"]).redirectPort, 8976);
    assert.throws(
      () => parseArgs(["list", "http://x", "--redirect-port", "8976"]),
      /--redirect-port goes with --login/,
    );
    for (const bad of ["0", "65536", "80a", "-1"]) {
      assert.throws(() => parseArgs(["list", "http://x", "--login", `--redirect-port=${bad}`]), /takes a port/);
    }
  });

  it("reads app with its tool, and --port for app only", () => {
    const args = parseArgs(["app", "http://x", "forecast", "--arg", "city=Oslo", "--port", "8123"]);
    assert.deepEqual([args.command, args.tool, args.argPairs, args.port], ["app", "forecast", ["city=Oslo"], 8123]);
    assert.throws(() => parseArgs(["app", "http://x"]), /app needs a tool name/);
    assert.throws(() => parseArgs(["call", "http://x", "add", "--port", "8123"]), /--port goes with app/);
    assert.throws(() => parseArgs(["app", "http://x", "forecast", "--port=0"]), /--port takes a port/);
  });

  it("reads types with --out and --check, and --check for types only", () => {
    const args = parseArgs(["types", "http://x/mcp", "--out", "remote.ts", "--check"]);
    assert.deepEqual([args.command, args.url, args.out, args.check], ["types", "http://x/mcp", "remote.ts", true]);
    assert.deepEqual(parseArgs(["types", "--out", "r.ts", "--", "python", "server.py"]).stdio, {
      command: "python",
      args: ["server.py"],
    });
    assert.equal(parseArgs(["types", "http://x"]).check, false);
    assert.throws(() => parseArgs(["list", "http://x", "--check"]), /--check goes with types/);
    assert.throws(() => parseArgs(["types", "http://x", "extra"]), /unexpected argument "extra"/);
  });

  it("reads check's options, repeatable ones in order, and refuses them on another command", () => {
    const args = parseArgs([
      "check",
      "http://x/mcp",
      "--max-tokens=20000",
      "--fail-on",
      "warning",
      "--cases",
      "cases.json",
      "--call",
      'get_user={"id":"1"}',
      "--call",
      "ping",
      "--ignore",
      "required",
      "--encoding",
      "cl100k_base",
    ]);
    assert.deepEqual(
      [args.command, args.maxTokens, args.failOn, args.cases, args.calls, args.ignore, args.encoding],
      ["check", 20000, "warning", "cases.json", ['get_user={"id":"1"}', "ping"], ["required"], "cl100k_base"],
    );
    assert.deepEqual(parseArgs(["check", "--", "node", "server.js"]).stdio, { command: "node", args: ["server.js"] });
    const file = parseArgs(["check", "saved/tools.json", "--json"]);
    assert.deepEqual([file.toolsFile, file.url], ["saved/tools.json", undefined]);
    assert.equal(parseArgs(["check", "https://x.test/tools.json"]).url, "https://x.test/tools.json");
    assert.throws(() => parseArgs(["check", "tools.json", "--call", "t"]), /--call needs a server to call/);
    for (const bad of ["-3", "0", "1.5", "many"]) {
      assert.throws(() => parseArgs(["check", "http://x", "--max-tokens", bad]), /--max-tokens takes a positive whole/);
    }
    assert.throws(() => parseArgs(["check", "http://x", "--fail-on", "fatal"]), /--fail-on takes error, warning, info/);
    assert.throws(
      () => parseArgs(["check", "http://x", "--encoding", "gpt2"]),
      /--encoding takes o200k_base or cl100k_base/,
    );
    for (const option of ["--max-tokens=9", "--fail-on=info", "--cases=c.json", "--call=t", "--ignore=required"]) {
      assert.throws(() => parseArgs(["list", "http://x", option]), /goes with check/, option);
    }
  });
});
