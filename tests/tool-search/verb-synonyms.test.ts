/**
 * Verbs that mean "add" to something that is there (put, apply, attach, tag, mark…): a labelling request finds
 * the tool that labels, on two tool sets named as APIs name them (GitHub's REST operations, and an MCP server's
 * `update_issue` that takes `labels`), and a word's verbs are alternatives (put: add, create or update), so a
 * `create-or-update` tool holding two of them is not counted twice: the secrets tool no longer ranks first for a
 * label. Where those verbs mean something else they still find it (a secret put, a file attached to a release: an
 * upload, a commit tagged).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { type AnyTool, createServer, defineTool, type Server, toolSearch } from "../../mod.ts";
import { queryTerms } from "../../src/tool-search/query-terms.ts";
import { DEFAULT_SYNONYMS } from "../../src/tool-search/query-terms.ts";

type Tools =
  readonly (readonly [name: string, description: string, input?: v.ObjectSchema<v.ObjectEntries, undefined>])[];

/** GitHub's REST operations, with their summaries and descriptions (the names `toolsFromOpenAPI()` gives them). */
const REST: Tools = [
  ["issues_add-labels", "Add labels to an issue\n\nAdds labels to an issue."],
  ["issues_set-labels", "Set labels for an issue\n\nRemoves any previous labels and sets the new labels for an issue."],
  ["issues_remove-label", "Remove a label from an issue\n\nRemoves the specified label from the issue."],
  ["issues_create-label", "Create a label\n\nCreates a label for the repository with the given name and color."],
  ["issues_create", "Create an issue\n\nAny user with pull access to a repository can create an issue."],
  ["issues_update", "Update an issue\n\nIssue owners and users with push access can edit an issue."],
  ["issues_create-comment", "Create an issue comment"],
  ["issues_add-assignees", "Add assignees to an issue\n\nAdds up to 10 assignees to an issue."],
  ["actions_create-or-update-repo-secret", "Create or update a repository secret\n\nWith an encrypted value."],
  ["actions_create-or-update-org-secret", "Create or update an organization secret"],
  ["repos_create-or-update-file-contents", "Create or update file contents\n\nCreates a new file or replaces one."],
  ["git_create-tag", "Create a tag object"],
  ["repos_upload-release-asset", "Upload a release asset"],
  ["repos_create-release", "Create a release"],
];

const repo = { owner: v.string(), repo: v.string() };

/** An MCP server's tools for the same API: labels are set by updating the issue. */
const MCP: Tools = [
  [
    "update_issue",
    "Update an existing issue in a GitHub repository",
    v.object({
      ...repo,
      issue_number: v.number(),
      title: v.optional(v.string()),
      labels: v.optional(v.array(v.string())),
      state: v.optional(v.string()),
    }),
  ],
  ["create_issue", "Create a new issue in a GitHub repository", v.object({ ...repo, title: v.string() })],
  ["get_issue", "Get details of a specific issue in a GitHub repository"],
  ["list_issues", "List issues in a GitHub repository", v.object({ ...repo, labels: v.optional(v.array(v.string())) })],
  ["add_issue_comment", "Add a comment to a specific issue in a GitHub repository"],
  [
    "create_or_update_secret",
    "Create or update a repository secret for GitHub Actions",
    v.object({ ...repo, name: v.string() }),
  ],
  [
    "create_or_update_file",
    "Create or update a single file in a GitHub repository",
    v.object({ ...repo, path: v.string() }),
  ],
  [
    "create_tag",
    "Create a git tag object pointing at a commit",
    v.object({ ...repo, tag: v.string(), sha: v.string() }),
  ],
  ["upload_release_asset", "Upload a file as an asset of a release", v.object({ ...repo, release_id: v.number() })],
  ["delete_secret", "Delete a repository secret"],
];

function serverOf(tools: Tools): Server<Record<string, AnyTool>> {
  const server = createServer({ name: "github", version: "1.0.0", toolSearch: toolSearch({}) });
  for (const [name, description, input] of tools) {
    server.tool(defineTool(name).describe(description).input(input ?? v.object(repo)).handle(() => "ok"));
  }
  return server as Server<Record<string, AnyTool>>;
}

async function first(server: Server<Record<string, AnyTool>>, query: string): Promise<string> {
  const outcome = await server.call("search_tools", { query, limit: 3 });
  assert.equal(outcome.kind, "answer");
  return (outcome.result.structuredContent as { tools: { name: string }[] }).tools[0].name;
}

/** Labelling requests, as users say them. */
const LABELLING = [
  "tag this issue as a bug",
  "apply the label",
  "put a label on an issue",
  "attach a label to issue 3",
  "put the bug label on it",
];

describe("tool search: verbs that mean add", () => {
  it("finds the tool that labels an issue, by the verbs users say, on GitHub's REST operations", async () => {
    const server = serverOf(REST);
    for (const query of [...LABELLING, "apply the bug label to issue 7", "tag the issue"]) {
      assert.equal(await first(server, query), "issues_add-labels", query);
    }
  });

  it("finds update_issue for a label where the tools label by updating, never the secrets tool", async () => {
    const server = serverOf(MCP);
    for (const query of [...LABELLING, "mark issue 4 as a duplicate"]) {
      assert.equal(await first(server, query), "update_issue", query);
    }
  });

  it("finds what those verbs mean elsewhere: a secret or a file put, a file attached (uploaded), a commit tagged", async () => {
    const rest = serverOf(REST), mcp = serverOf(MCP);
    assert.equal(await first(rest, "put a secret in the repo"), "actions_create-or-update-repo-secret");
    assert.equal(await first(mcp, "put a secret in the repo"), "create_or_update_secret");
    assert.equal(await first(rest, "put a file in the repo"), "repos_create-or-update-file-contents");
    assert.equal(await first(rest, "attach a file to a release"), "repos_upload-release-asset");
    assert.equal(await first(mcp, "attach a file to the release"), "upload_release_asset");
    assert.equal(await first(mcp, "tag a commit"), "create_tag");
  });

  it("takes a word's operation verbs as alternatives, and its other synonyms as more words", () => {
    const alternatives: string[][] = [];
    const terms = queryTerms("put the label on", DEFAULT_SYNONYMS, 1, alternatives);
    assert.deepEqual([...terms.keys()].sort(), ["add", "creat", "label", "put", "updat"]);
    assert.deepEqual(alternatives, [["add", "creat", "updat"]]);
    const none: string[][] = [];
    queryTerms("get notified", { notified: ["create", "subscription"] }, 1, none);
    assert.deepEqual(none, [], "one verb and a noun: both count");
    for (const verb of ["put", "apply", "attach", "tag"]) assert.ok(DEFAULT_SYNONYMS[verb].includes("add"), verb);
  });
});
