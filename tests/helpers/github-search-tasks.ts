/**
 * What users ask of GitHub's REST API, in their own words, each with the operations (tool names, from
 * the `operationId`s of APIs.guru's `github.com/api.github.com.json` as `toolsFromOpenAPI()` names
 * them) that do it: a tool search evaluation on a second API (bench/tool-search.ts). Written from the
 * list of operations before the ranking was run on them (issue 61); the first two are the issue's.
 * A task is found when one of its operations is in the search's top 5.
 */
import type { SearchTask } from "./graph-search-tasks.ts";

export const GITHUB_SEARCH_TASKS: readonly SearchTask[] = [
  { task: "leave a comment on issue #12", expected: ["issues_create-comment"] },
  {
    task: "store a secret for Actions",
    expected: [
      "actions_create-or-update-repo-secret",
      "actions_create-or-update-org-secret",
      "actions_create-or-update-environment-secret",
    ],
  },
  { task: "open a new issue about a crash", expected: ["issues_create"] },
  { task: "close issue #5", expected: ["issues_update"] },
  { task: "list the open pull requests in a repo", expected: ["pulls_list"] },
  { task: "merge a pull request", expected: ["pulls_merge"] },
  { task: "ask someone to review my pull request", expected: ["pulls_request-reviewers"] },
  { task: "approve a pull request", expected: ["pulls_create-review", "pulls_submit-review"] },
  { task: "put a label on an issue", expected: ["issues_add-labels", "issues_set-labels"] },
  { task: "assign an issue to a teammate", expected: ["issues_add-assignees"] },
  { task: "create a new repository", expected: ["repos_create-for-authenticated-user", "repos_create-in-org"] },
  { task: "fork a repository", expected: ["repos_create-fork"] },
  { task: "star a repository", expected: ["activity_star-repo-for-authenticated-user"] },
  { task: "publish a release for version 2.0", expected: ["repos_create-release"] },
  { task: "show the latest release", expected: ["repos_get-latest-release"] },
  { task: "list the branches of a repo", expected: ["repos_list-branches"] },
  { task: "read the README of a repository", expected: ["repos_get-readme"] },
  { task: "save a file to a repository", expected: ["repos_create-or-update-file-contents"] },
  { task: "add a webhook to a repo", expected: ["repos_create-webhook"] },
  { task: "who contributed to this repository", expected: ["repos_list-contributors"] },
  { task: "search for repositories about machine learning", expected: ["search_repos"] },
  { task: "find issues mentioning a memory leak", expected: ["search_issues-and-pull-requests"] },
  {
    task: "list the workflow runs of a repository",
    expected: ["actions_list-workflow-runs-for-repo", "actions_list-workflow-runs"],
  },
  { task: "re-run a failed workflow", expected: ["actions_re-run-workflow", "actions_re-run-workflow-failed-jobs"] },
  { task: "add my SSH key to my account", expected: ["users_create-public-ssh-key-for-authenticated-user"] },
  { task: "invite a user to our organization", expected: ["orgs_create-invitation"] },
  { task: "list my notifications", expected: ["activity_list-notifications-for-authenticated-user"] },
  { task: "share a code snippet as a gist", expected: ["gists_create"] },
  { task: "delete a branch", expected: ["git_delete-ref"] },
  { task: "remove a label from an issue", expected: ["issues_remove-label"] },
];
