// The documentation's examples as test modules: each ```ts block of a JSDoc comment in the given files, as
// `deno test --doc` runs it, written as a module of its own that a process can import beside others.
//
// `deno test --doc` runs each example in an isolate of its own, loading the SDK's module graph again each time (about
// 250 examples, 40 s of CPU on a quiet machine); tools/test.mjs imports these modules from the one module its Deno
// process loads instead. What Deno does with a block, this does too (Deno's manual, "Documentation tests"): a fence
// whose language is `ts`, `typescript` or none in a TypeScript file is an example unless its info string says
// `ignore`; the block's imports are hoisted to the module's top and the rest runs as the body of an async test, with
// Deno.test's sanitizers. Relative specifiers and `import.meta.url` are the documented file's, as under Deno. The
// type check (`deno check --doc`, npm run test:types) still reads the examples with Deno's own extraction.
// Plain JavaScript for Node, as tools/test.mjs.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

/**
 * The TypeScript files under `paths` (files or directories), as `deno test --doc` takes them: `.ts` and `.tsx`,
 * not declaration files.
 *
 * @param {string[]} paths
 * @returns {string[]}
 */
function sourceFiles(paths) {
  return paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? sourceFiles(readdirSync(path).map((name) => join(path, name)))
      : /\.tsx?$/.test(path) && !path.endsWith(".d.ts")
      ? [path]
      : []
  ).sort();
}

/** An `import` declaration at a line's start, through its specifier (a side-effect import has no `from`). */
const IMPORT = /^import\s[\s\S]*?["'][^"']+["'][^;\n]*;?[ \t]*\n?/gm;

/**
 * One example: its place and its module's text.
 *
 * @typedef {{ file: string, line: number, end: number, name: string, source: string }} DocExample
 */

/**
 * The examples of the JSDoc comments in `paths` (files or directories), in file order.
 *
 * @param {string[]} paths Files and directories, relative to `root`.
 * @param {string} root The directory the paths are relative to.
 * @returns {DocExample[]}
 */
export function docExamples(paths, root = process.cwd()) {
  const examples = [];
  for (const file of sourceFiles(paths.map((path) => join(root, path)))) {
    const text = readFileSync(file, "utf8");
    const name = relative(root, file);
    for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      const first = text.slice(0, comment.index).split("\n").length; // the comment's first line, 1-based
      // A JSDoc line without its leading `*` and the one space after it, as Deno reads it.
      const lines = comment[0].split("\n").map((line, i) =>
        i === 0 ? line.replace(/^\/\*\*\s?/, "") : line.replace(/^\s*\*(?!\/)\s?/, "").replace(/\*\/$/, "")
      );
      for (let i = 0; i < lines.length; i++) {
        const open = /^\s*```(\S*)(.*)$/.exec(lines[i]);
        if (open === null) continue;
        let end = i + 1;
        while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
        if (["ts", "typescript", ""].includes(open[1]) && !/\bignore\b/.test(open[2])) {
          examples.push(example(file, name, first + i, first + end, lines.slice(i + 1, end).join("\n")));
        }
        i = end;
      }
    }
  }
  return examples;
}

/**
 * An example's module: its imports hoisted, relative ones made absolute, and the rest as an async test's body.
 *
 * @param {string} file The documented file's path.
 * @param {string} name Its path relative to the root, for the test's name.
 * @param {number} line The opening fence's line.
 * @param {number} end The closing fence's line.
 * @param {string} code The block.
 * @returns {DocExample}
 */
function example(file, name, line, end, code) {
  const base = pathToFileURL(file);
  const imports = [...code.matchAll(IMPORT)].map((match) =>
    match[0].trimEnd().replace(
      /(["'])(\.{1,2}\/[^"']+)\1/,
      (_, _quote, specifier) => JSON.stringify(new URL(specifier, base).href),
    )
  );
  // `import.meta` as the documented file's: Deno runs the block as a module beside it (`file.ts#1-10.ts`).
  const meta = { url: base.href, filename: file, dirname: dirname(file) };
  const body = code.replace(IMPORT, "").replace(
    /\bimport\.meta\.(url|filename|dirname)\b/g,
    (_, key) => JSON.stringify(meta[key]),
  );
  if (/\bimport\.meta\b/.test(body)) throw new Error(`${name} line ${line}: an example's import.meta other than url`);
  const title = `${name}#${line}-${end + 1}`; // as `deno test --doc` names the block's module, less its `.ts`
  const source = `${imports.join("\n")}\n\nDeno.test(${JSON.stringify(title)}, async () => {\n${body}\n});\n`;
  return { file: name, line, end, name: title, source };
}
