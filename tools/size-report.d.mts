/** A source file longer than this many lines is listed (tools/size-report.mjs). */
export const FILE_LINES: number;
/** A folder holding more than this many files directly is listed. */
export const FOLDER_FILES: number;
/** The files and folders under `dir` (relative to `root`) past the report's sizes, longest and fullest first. */
export function sizeReport(
  root: string,
  dir?: string,
  skip?: readonly string[],
): { files: { path: string; lines: number }[]; folders: { path: string; files: number }[] };
