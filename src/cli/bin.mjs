#!/usr/bin/env node
// The `mcplite` bin of package.json (`npx mcplite`, `bunx mcplite`). In the npm package it sits beside
// the compiled main.js, which every runtime runs; in a clone there is only main.ts, which Bun and Deno
// run (and Node from 22.18 on, which strips types outside node_modules).
const NODE_MINIMUM = [22, 19]; // package.json `engines.node` (checked by tests/package.test.ts)

if (!("Bun" in globalThis) && !("Deno" in globalThis)) {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < NODE_MINIMUM[0] || (major === NODE_MINIMUM[0] && minor < NODE_MINIMUM[1])) {
    process.stderr.write(
      `mcplite needs Node.js ${NODE_MINIMUM.join(".")} or later; this is Node ${process.versions.node}. ` +
        "Upgrade Node, or run it with bunx --bun mcplite or deno run -A jsr:@mcplite/sdk/cli\n",
    );
    process.exit(2);
  }
}

const here = new URL(".", import.meta.url);
try {
  await import(new URL("main.js", here).href);
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("main.js")) throw error;
  try {
    await import(new URL("main.ts", here).href);
  } catch (tsError) {
    // Node before 22.18 knows no .ts; later ones refuse to strip types under node_modules.
    const codes = ["ERR_UNKNOWN_FILE_EXTENSION", "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING"];
    if (!codes.includes(tsError?.code)) throw tsError;
    process.stderr.write(
      `mcplite: Node ${process.versions.node} cannot run these TypeScript sources here; ` +
        "install the npm package (npx mcplite), or run deno run -A jsr:@mcplite/sdk/cli\n",
    );
    process.exit(2);
  }
}
