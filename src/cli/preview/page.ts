/**
 * The preview page: the view in a sandboxed iframe (scripts and forms, an opaque origin: it reaches the
 * page and the server through `postMessage` alone), the tool's result and what the view sent beside it.
 * Forms are allowed because without `allow-forms` a `<form>` never even fires `submit` (HTML, "Form
 * submission algorithm": a sandboxed-forms document returns before it), so a view's form could not be
 * handled by its own script; it opens no new way out, since the view may navigate itself by script
 * anyway and has neither `allow-same-origin`, `allow-popups` nor `allow-top-navigation`.
 *
 * @module
 */
import { type HostConfig, hostMain } from "./host-script.ts";

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Builds the page.
 *
 * @param config The session the host script runs.
 * @param allow The iframe's `allow` attribute, from the permissions the view asked for.
 * @param border Whether to draw a border around the view (its `prefersBorder`; default yes).
 * @returns The HTML.
 */
export function previewPage(config: HostConfig, allow: string, border: boolean): string {
  const name = escapeHtml(String(config.tool.title ?? config.tool.name));
  const script = `(${String(hostMain)})(${JSON.stringify(config)});`.replaceAll("</script", "<\\/script");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${name} · mcplite app preview</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; display: grid; grid-template-columns: minmax(320px, 2fr) minmax(240px, 1fr); gap: 16px; padding: 16px; }
  header { grid-column: 1 / -1; font-size: 0.9rem; opacity: 0.8; }
  iframe { width: 100%; height: 360px; border: ${border ? "1px solid #8886" : "0"}; border-radius: 8px; }
  body.fullscreen { grid-template-columns: 1fr; }
  body.fullscreen aside { display: none; }
  body.fullscreen iframe { height: calc(100vh - 80px); }
  pre { white-space: pre-wrap; font-size: 0.8rem; max-height: 40vh; overflow: auto; }
  h2 { font-size: 0.9rem; margin: 0.5rem 0; }
</style>
</head>
<body>
<header>mcplite app preview · <strong>${name}</strong> <button id="teardown">Close the view</button></header>
<main><iframe id="view" title="${name}" sandbox="allow-scripts allow-forms" allow="${
    escapeHtml(allow)
  }"></iframe></main>
<aside>
<h2>Tool result</h2><pre id="result">calling…</pre>
<h2>From the view</h2><ul id="events"></ul>
<h2>Model context</h2><pre id="context"></pre>
</aside>
<script>${script}</script>
</body>
</html>
`;
}
