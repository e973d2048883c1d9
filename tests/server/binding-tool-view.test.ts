/**
 * `core.registry` as an out-of-tree binding reads it: the tools the server serves, its own then each grouped
 * child's under the names they are called by, read on each list, and the changes that tell a wire to list again.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { type Binding, createServer, defineTool } from "../../mod.ts";
import { type Route, runCall } from "../../src/binding.ts";

/** GET /names lists what the server serves; GET /changes counts what it heard; POST /call/{tool} calls one. */
function namesBinding(): Binding {
  return ({ registry }) => {
    const heard: string[] = [];
    registry.onChange((change) => heard.push(change.kind));
    const refuse = (error: Error) => new Response(error.message, { status: 403 });
    const answer = (body: () => unknown): Route => ({ handle: () => Promise.resolve(Response.json(body())), refuse });
    return {
      routes: new Map<string, Route>([
        ["/names", answer(() => [...registry.tools].map((tool) => tool.name))],
        ["/changes", answer(() => heard)],
        ["/call/*", {
          async handle(request: Request) {
            const outcome = await runCall(registry, {
              name: new URL(request.url).pathname.slice("/call/".length),
              arguments: await request.json(),
              meta: { wire: "in-process", headers: request.headers },
              signal: request,
            });
            return Response.json(outcome.kind === "answer" ? outcome.result.content : outcome.kind);
          },
          refuse,
        }],
      ]),
    };
  };
}

describe("an out-of-tree binding's view of the tools", () => {
  const git = () =>
    createServer({ name: "git", version: "1.0.0" })
      .tool(defineTool("clone").describe("Clones").input(v.object({ url: v.string() })).handle(({ url }) => url));

  it("lists the server's own tools, then a grouped child's, as they are called, and calls them", async () => {
    const child = git();
    const server = createServer({ name: "app", version: "1.0.0", bindings: [namesBinding()] })
      .tool(defineTool("ping").describe("Pings").handle(() => "pong"))
      .group("git", child);
    const names = async () => await (await server.fetch(new Request("http://localhost/names"))).json();
    assert.deepEqual(await names(), ["ping", "git.clone"]);
    const called = await server.fetch(
      new Request("http://localhost/call/git.clone", { method: "POST", body: JSON.stringify({ url: "r.git" }) }),
    );
    assert.deepEqual(await called.json(), [{ type: "text", text: "r.git" }]);

    child.tool(defineTool("push").describe("Pushes").handle(() => "pushed"));
    assert.deepEqual(await names(), ["ping", "git.clone", "git.push"]);
    const heard = await (await server.fetch(new Request("http://localhost/changes"))).json();
    assert.ok(heard.includes("tools"), JSON.stringify(heard));
  });

  it("serves the first provider's tool of a name a child gains later, in the list as on the call path", async () => {
    const child = git();
    const server = createServer({ name: "app", version: "1.0.0", bindings: [namesBinding()] })
      .tool(defineTool("echo").describe("Echoes").handle(() => "parent"))
      .group(child);
    child.tool(defineTool("echo").describe("Echoes").handle(() => "child"));
    const names = await (await server.fetch(new Request("http://localhost/names"))).json();
    assert.deepEqual(names, ["echo", "clone"]);
    const called = await server.fetch(new Request("http://localhost/call/echo", { method: "POST", body: "{}" }));
    assert.deepEqual(await called.json(), [{ type: "text", text: "parent" }]);
    // At grouping time a clash is refused whole, naming it.
    assert.throws(() => server.group(git()), /tool "clone" would be served as "clone", which this server has already/);
  });
});
