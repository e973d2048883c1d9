// The conformance page's figures: docs/public/conformance.json, which the release workflow writes from its own run of
// the official MCP conformance suite (docs/scripts/conformance.mjs) before it builds the site; absent in other builds.
import { existsSync, readFileSync } from "node:fs";

const FILE = new URL("./public/conformance.json", import.meta.url);

export default {
  watch: ["./public/conformance.json"],
  load() {
    return existsSync(FILE) ? JSON.parse(readFileSync(FILE, "utf8")) : null;
  },
};
