import { readFileSync } from "node:fs";
import { checkTools } from "./src/testing/mod.ts";
const { tools } = JSON.parse(readFileSync("tests/quality/fixtures/github-mcp-server-tools.json","utf8"));
const cases = [
  { prompt: "list the open pull requests in octo/app", expect: "list_pull_requests" },
  { prompt: "show pull requests targeting the main branch of octo/app", expect: "list_pull_requests" },
  { prompt: "which pull requests of octo/app were updated most recently", expect: "list_pull_requests" },
  { prompt: "pull requests opened by alice", expect: "search_pull_requests" },
  { prompt: "find pull requests that mention flaky tests", expect: "search_pull_requests" },
  { prompt: "pull requests labelled bug across the octo org", expect: "search_pull_requests" },
  { prompt: "my pull requests waiting for review", expect: "search_pull_requests" },
  { prompt: "closed pull requests in octo/app", expect: "list_pull_requests" },
];
const before = await checkTools(tools, { cases });
console.log("before", before.selection.top1, before.selection.top3, JSON.stringify(before.selection.results.map(r=>[r.rank, r.top.join(",")])));
const fixed = tools.map((t) => t.name === "list_pull_requests" ? { ...t, description: "List the open or closed pull requests of one repository, filtered by base or head branch, newest or most recently updated first." }
  : t.name === "search_pull_requests" ? { ...t, description: "Search pull requests by author, label, review requested or words in their title and body, in one repository or across an organization, with GitHub's search syntax (author:alice label:bug review-requested:@me)." } : t);
const after = await checkTools(fixed, { cases });
console.log("after", after.selection.top1, after.selection.top3, JSON.stringify(after.selection.results.map(r=>[r.rank, r.top.join(",")])));
console.log(after.confusable.filter(p => p.tools.includes("list_pull_requests")||p.tools.includes("search_pull_requests")).map(p=>p.tools.join("~")));
console.log(before.confusable.filter(p => p.tools.includes("list_pull_requests")||p.tools.includes("search_pull_requests")).map(p=>JSON.stringify(p)));
