/**
 * Media types of skill files by extension (`text/markdown` for `SKILL.md`, SEP-2640).
 *
 * @module
 */

const TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  csv: "text/csv",
  html: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/typescript",
  py: "text/x-python",
  sh: "text/x-shellscript",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  zip: "application/zip",
};

/**
 * The media type of a file.
 *
 * @param path Its path.
 * @param text Whether its bytes are text (the fallback is `text/plain`, else `application/octet-stream`).
 * @returns The media type.
 */
export function mimeTypeOf(path: string, text: boolean): string {
  const dot = path.lastIndexOf(".");
  const known = dot === -1 ? undefined : TYPES[path.slice(dot + 1).toLowerCase()];
  return known ?? (text ? "text/plain" : "application/octet-stream");
}
