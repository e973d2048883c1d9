// Types of charts.mjs, for the tests that import it.

/** One chart: its file, the table it draws and how. */
export interface Chart {
  file: string;
  heading: string;
  title: string;
  unit: string;
  keys?: number;
  columns?: string[];
  reference?: number | null;
}
/** A RESULTS.md table. */
export interface Table {
  header: string[];
  rows: string[][];
}
export const CHARTS: Chart[];
export const HEADLINE: { chart: string; file: string };
export function table(markdown: string, heading: string): Table;
export function figure(cell: string, unit: string): number | undefined;
export function svg(chart: Chart, table: Table): string;
