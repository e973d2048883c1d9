/**
 * Applies the host's look to the view (SEP-1865, Theming): the theme as `color-scheme` and
 * `data-theme`, the host's CSS variables on the root element, and its font CSS in one `<style>`.
 *
 * @module
 */
import type { ViewGlobals } from "./browser.ts";
import type { HostContext } from "./view-types.ts";

const FONTS_ID = "mcplite-host-fonts";

/**
 * Applies what a host context carries of the host's look; fields it lacks are left as they are.
 *
 * @param globals The view's globals.
 * @param context The host context (or a change of it).
 */
export function applyHostStyles(globals: ViewGlobals, context: HostContext): void {
  const root = globals.document.documentElement;
  if (context.theme !== undefined) {
    root.dataset.theme = context.theme;
    root.style.colorScheme = context.theme;
  }
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (typeof value === "string") root.style.setProperty(name, value);
  }
  const fonts = context.styles?.css?.fonts;
  if (typeof fonts === "string") {
    let style = globals.document.getElementById(FONTS_ID);
    if (style === null) {
      style = globals.document.createElement("style");
      style.setAttribute("id", FONTS_ID);
      globals.document.head.appendChild(style);
    }
    style.textContent = fonts;
  }
}
