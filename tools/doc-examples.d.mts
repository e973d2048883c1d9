/** One documentation example: its file, its fences' lines, its test's name and its module's text. */
export interface DocExample {
  file: string;
  line: number;
  end: number;
  name: string;
  source: string;
}

/** The examples of the JSDoc comments in `paths`, relative to `root` (tools/doc-examples.mjs). */
export function docExamples(paths: string[], root?: string): DocExample[];
