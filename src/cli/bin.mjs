#!/usr/bin/env node
// The `mcplite` bin of package.json. npx runs a bin with the runtime its shebang names, bunx too
// (with `bunx --bun`, Bun). Bun and Deno run the TypeScript sources; Node runs the JavaScript that
// JSR's npm layer compiles them to (main.js beside this file), or the sources themselves from Node
// 22.18 on, which strips types (outside node_modules only).
const here = new URL(".", import.meta.url);
const runsTypeScript = "Bun" in globalThis || "Deno" in globalThis;
try {
  await import(runsTypeScript ? new URL("main.ts", here).href : new URL("main.js", here).href);
} catch (error) {
  if (runsTypeScript || error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("main.js")) {
    throw error;
  }
  try {
    await import(new URL("main.ts", here).href);
  } catch (tsError) {
    // Node before 22.18 knows no .ts; later ones refuse to strip types under node_modules.
    const codes = ["ERR_UNKNOWN_FILE_EXTENSION", "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING"];
    if (!codes.includes(tsError?.code)) throw tsError;
    process.stderr.write(
      `mcplite: Node ${process.versions.node} cannot run these TypeScript sources here; ` +
        "use bunx --bun mcplite, or deno run -A jsr:@mcplite/sdk/cli\n",
    );
    process.exit(2);
  }
}
