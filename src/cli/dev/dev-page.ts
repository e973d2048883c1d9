/**
 * The dev page's HTML: what the server serves on the left, the picked tool, prompt or resource with
 * its form and its output on the right, the server's state and endpoints above.
 *
 * @module
 */
import { FORM_SCRIPT } from "./dev-form-script.ts";
import { PAGE_SCRIPT } from "./dev-page-script.ts";

const STYLE = `
:root { color-scheme: light dark; font: 14px/1.45 system-ui, sans-serif; }
body { margin: 0; }
header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid #8884; }
header h1 { font-size: 1rem; margin: 0; }
.status { padding: .1rem .5rem; border-radius: 1rem; font-size: .85rem; }
.status.ready { background: #1a7f3722; color: #1a7f37; }
.status.starting { background: #9a670022; color: #9a6700; }
.status.failed { background: #cf222e22; color: #cf222e; }
#endpoints { display: flex; flex-wrap: wrap; gap: .2rem 1rem; list-style: none; margin: 0; padding: 0; font-size: .8rem; }
#failure { margin: 1rem; padding: .6rem 1rem; border: 1px solid #cf222e; border-radius: .4rem; }
#failure pre { white-space: pre-wrap; font-size: .8rem; }
main { display: grid; grid-template-columns: minmax(12rem, 18rem) 1fr; }
nav { padding: .5rem 1rem; border-right: 1px solid #8884; }
nav h3 { font-size: .8rem; text-transform: uppercase; opacity: .7; margin: .8rem 0 .3rem; }
nav ul { list-style: none; margin: 0; padding: 0; }
.pick { all: unset; cursor: pointer; display: block; padding: .15rem .4rem; border-radius: .3rem; font-family: ui-monospace, monospace; }
.pick:hover, .pick.picked { background: #8883; }
#detail { padding: .5rem 1.5rem; }
.field { display: grid; gap: .15rem; margin: .5rem 0; }
.field small { opacity: .7; }
.field input[type=checkbox] { justify-self: start; }
fieldset { border: 1px solid #8886; border-radius: .3rem; }
.item { display: flex; gap: .4rem; align-items: start; margin: .2rem 0; }
input[type=text], input[type=number], select, textarea { font: inherit; padding: .25rem; max-width: 36rem; }
textarea.json { font-family: ui-monospace, monospace; width: 100%; max-width: 40rem; }
.actions { display: flex; gap: .5rem; margin: .8rem 0; }
pre { background: #8881; padding: .5rem; border-radius: .3rem; white-space: pre-wrap; max-width: 60rem; }
.error { color: #cf222e; }
.question { border: 1px solid #d4a72c; border-radius: 6px; padding: .5rem .8rem; margin: .5rem 0; }
.question a { word-break: break-all; }
.hint { opacity: .7; }
`;

/**
 * The page.
 *
 * @param token The secret the page's calls carry.
 * @returns Its HTML.
 */
export function devPage(token: string): string {
  const script = `const TOKEN = ${JSON.stringify(token)};\n${FORM_SCRIPT}\n${PAGE_SCRIPT}`.replaceAll(
    "</script",
    "<\\/script",
  );
  const list = (id: string, title: string) => `<h3>${title} (<span id="${id}-count">0</span>)</h3><ul id="${id}"></ul>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcplite dev</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body>
<header><h1>mcplite dev</h1><span id="status" class="status starting">connecting…</span><ul id="endpoints"></ul></header>
<section id="failure" hidden><strong id="failure-message"></strong><div><code id="failure-location"></code></div>
<pre id="failure-detail"></pre><p class="hint">Waiting for the next edit.</p></section>
<main><nav>${list("tools", "Tools")}${list("prompts", "Prompts")}${list("resources", "Resources")}${
    list("templates", "Resource templates")
  }</nav>
<section id="detail"><p class="hint">Pick a tool, a prompt or a resource.</p></section></main>
<script type="module">${script}</script>
</body></html>`;
}
