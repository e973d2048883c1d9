/**
 * The forecast view's HTML: a complete document with its style and (bundled) script inline. Colours
 * and fonts come from the host's CSS variables (SEP-1865, Theming), with fallbacks of its own.
 */

/**
 * Builds the document around the view's script.
 *
 * @param script The bundled view script.
 * @returns The HTML.
 */
export function forecastPage(script: string): string {
  // A script may not close its own element early.
  const safe = script.replaceAll("</script", "<\\/script");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Forecast</title>
<style>
  :root { color-scheme: light dark; }
  body {
    margin: 0; padding: 12px;
    font-family: var(--font-sans, system-ui, sans-serif);
    color: var(--color-text-primary, light-dark(#171717, #fafafa));
    background: var(--color-background-primary, light-dark(#ffffff, #171717));
  }
  h1 { font-size: 1.1rem; margin: 0 0 8px; }
  table { border-collapse: collapse; margin-bottom: 8px; }
  th, td { padding: 2px 10px; text-align: right; border-bottom: 1px solid var(--color-border-primary, #ccc); }
  th:first-child, td:first-child { text-align: left; }
  svg rect { fill: var(--color-text-info, #2f6fde); }
  svg text { font-size: 10px; fill: currentColor; }
  button { font: inherit; padding: 4px 10px; }
  #status { margin-left: 8px; color: var(--color-text-secondary, #666); }
</style>
</head>
<body>
<h1 id="title">Waiting for the forecast…</h1>
<table id="days"><thead><tr><th>Day</th><th>High °C</th><th>Low °C</th></tr></thead><tbody></tbody></table>
<svg id="chart" width="280" height="110" role="img" aria-label="Daily highs"></svg>
<p><button id="refresh" disabled>Refresh</button><span id="status"></span></p>
<script type="module">${safe}</script>
</body>
</html>
`;
}
