import { defineConfig } from "vitepress";

/** Where the site is served: "/", or "/<repository>/" on GitHub Pages (the release workflow sets DOCS_BASE). */
const BASE = process.env.DOCS_BASE ?? "/";

/** The site's navigation: every page, in reading order (tests/docs-site.test.ts visits each). */
export const sidebar = [
  {
    text: "Getting started",
    items: [
      { text: "Install and first server", link: "/getting-started/" },
      { text: "Deno", link: "/getting-started/deno" },
      { text: "Bun", link: "/getting-started/bun" },
      { text: "Node", link: "/getting-started/node" },
      { text: "Cloudflare Workers", link: "/getting-started/workers" },
    ],
  },
  {
    text: "Concepts",
    items: [
      { text: "Tools and the DSL", link: "/concepts/tools" },
      { text: "One definition, many wires", link: "/concepts/one-definition-many-wires" },
      { text: "The MCP-lite envelope", link: "/concepts/envelope" },
      { text: "Long-running work", link: "/concepts/long-running" },
      { text: "Errors and statuses", link: "/concepts/errors" },
      { text: "Middleware and groups", link: "/concepts/middleware-and-groups" },
      { text: "What differs between runtimes", link: "/concepts/runtimes" },
    ],
  },
  {
    text: "Guides",
    items: [
      { text: "MCP", link: "/guides/mcp" },
      { text: "MCP-lite over HTTP and SSE", link: "/guides/mcp-lite" },
      { text: "stdio and local hosts", link: "/guides/stdio" },
      { text: "WebSocket", link: "/guides/websocket" },
      { text: "gRPC and Connect", link: "/guides/grpc" },
      { text: "Webtools", link: "/guides/webtools" },
      { text: "OpenAPI", link: "/guides/openapi" },
      { text: "Composing servers", link: "/guides/composing" },
      { text: "Code mode", link: "/guides/code-mode" },
      { text: "MCP Apps", link: "/guides/apps" },
      { text: "Agent Skills", link: "/guides/skills" },
      { text: "Events", link: "/guides/events" },
      { text: "Writing an extension", link: "/guides/writing-an-extension" },
      { text: "Icons and the server card", link: "/guides/discovery" },
      { text: "The typed client", link: "/guides/client" },
      { text: "Authorization (server)", link: "/guides/authorization" },
      { text: "Authorization (client)", link: "/guides/client-authorization" },
      { text: "The authorization server", link: "/guides/authorization-server" },
      { text: "Many instances", link: "/guides/many-instances" },
      { text: "Queue workers", link: "/guides/many-instances#queue-workers" },
      { text: "A store or queue of your own", link: "/guides/own-store-or-queue" },
      { text: "Limits", link: "/guides/limits" },
      { text: "Observability", link: "/guides/observability" },
      { text: "Cloudflare Workers", link: "/guides/cloudflare-workers" },
      { text: "Mounting in frameworks", link: "/guides/mounting" },
      { text: "The command line", link: "/guides/cli" },
      { text: "Tool quality, offline", link: "/guides/tool-quality" },
    ],
  },
  {
    text: "Migrating",
    items: [
      { text: "From mcp-lite", link: "/migrating/from-mcp-lite" },
      { text: "From the official SDK", link: "/migrating/from-official-sdk" },
      { text: "From FastMCP", link: "/migrating/from-fastmcp" },
      { text: "From Inngest, Restate, DBOS, Workflows", link: "/migrating/from-durable-engines" },
    ],
  },
  {
    text: "Reference",
    items: [
      { text: "API reference", link: "/api/index.html", target: "_self" },
      { text: "Public API (1.0 surface)", link: "/public-api" },
      { text: "Stability", link: "/stability" },
      { text: "Specification", link: "/specification" },
      { text: "Performance", link: "/performance" },
      { text: "Architecture", link: "/architecture" },
      { text: "Status", link: "/status" },
      { text: "Conformance", link: "/conformance" },
      { text: "Changelog", link: "/changelog" },
      { text: "Development", link: "/contributing" },
    ],
  },
];

export default defineConfig({
  title: "@mcplite/sdk",
  description: "Typed, stateless tools for LLM agents: MCP-lite, MCP, gRPC and Webtools from one definition.",
  base: BASE,
  cleanUrls: false,
  lastUpdated: false,
  head: [["link", { rel: "icon", type: "image/svg+xml", href: `${BASE}favicon.svg` }]],
  // The API reference is written by `deno doc --html` after the VitePress build (docs/scripts/api.mjs).
  ignoreDeadLinks: [/\/api\//],
  markdown: {
    theme: { light: "github-light", dark: "github-dark" },
    // Pages that also read well on GitHub link files beside docs/ (../CHANGELOG.md), and the changelog, included from the
    // repository's root, links docs/*.md: on the site, the pages that show them. Links to the API reference get the base.
    config(md) {
      md.core.ruler.push("repository-links", (state) => {
        for (const token of state.tokens.flatMap((t) => [t, ...(t.children ?? [])])) {
          const href = token.type === "link_open" ? token.attrGet("href") : null;
          if (href === null) continue;
          const site = href.replace(/^\.\.\/CHANGELOG\.md/, "/changelog.md").replace(/^docs\//, "/")
            .replace(/^\/api\//, `${BASE}api/`); // a full page load (target="_self"), which VitePress leaves without the base
          if (site !== href) token.attrSet("href", site);
        }
      });
    },
  },
  themeConfig: {
    nav: [
      { text: "Getting started", link: "/getting-started/" },
      { text: "Concepts", link: "/concepts/tools" },
      { text: "Guides", link: "/guides/mcp" },
      { text: "API", link: "/api/index.html", target: "_self" },
      { text: "Performance", link: "/performance" },
      { text: "Specification", link: "/specification" },
    ],
    sidebar,
    search: { provider: "local" },
    outline: [2, 3],
  },
});
