/**
 * Bundles a view's script for the browser with the runtime's own bundler (`Bun.build`, or
 * `deno bundle`), so that the view's HTML carries it inline: a view's default CSP loads no other file.
 */

interface BunBuild {
  build(options: { entrypoints: string[]; minify: boolean; target: "browser" }): Promise<
    { success: boolean; logs: unknown[]; outputs: { text(): Promise<string> }[] }
  >;
}

interface DenoCommand {
  execPath(): string;
  Command: new (program: string, options: { args: string[]; stdout: "piped"; stderr: "piped" }) => {
    output(): Promise<{ success: boolean; stdout: Uint8Array; stderr: Uint8Array }>;
  };
}

/**
 * Bundles one entry point (and what it imports) into one minified script.
 *
 * @param entry The entry point.
 * @returns The script.
 */
export async function bundleView(entry: URL): Promise<string> {
  const g = globalThis as { Bun?: BunBuild; Deno?: DenoCommand };
  if (g.Bun) {
    const built = await g.Bun.build({ entrypoints: [entry.pathname], minify: true, target: "browser" });
    if (!built.success) throw new Error(`bundling ${entry.pathname} failed: ${built.logs.join("\n")}`);
    return await built.outputs[0].text();
  }
  if (g.Deno) {
    const args = ["bundle", "--quiet", "--minify", "--platform", "browser", entry.pathname];
    // `deno bundle` installs esbuild into DENO_DIR on its first use; two first uses at once race (Deno 2.9: one
    // fails "failed to copy esbuild binary", the file the other moved), so a failure is tried once more.
    for (let attempt = 1;; attempt++) {
      const out = await new g.Deno.Command(g.Deno.execPath(), { args, stdout: "piped", stderr: "piped" }).output();
      if (out.success) return new TextDecoder().decode(out.stdout);
      if (attempt === 2) {
        throw new Error(`deno bundle ${entry.pathname} failed: ${new TextDecoder().decode(out.stderr)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500)); // the other's install ends
    }
  }
  throw new Error("bundling the view needs Bun or Deno");
}
