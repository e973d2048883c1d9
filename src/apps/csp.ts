/**
 * The Content Security Policy and Permission Policy a host gives a view, built from its resource's
 * `_meta.ui` (SEP-1865, Content Security Policy Enforcement): nothing but the origins it declared.
 *
 * @module
 */
import type { AppCsp, AppPermissions } from "../internal/mcp-apps-wire.ts";

const join = (origins: readonly string[] | undefined): string => origins?.length ? ` ${origins.join(" ")}` : "";

/**
 * Builds the CSP a host enforces on a view. Without declared origins it is SEP-1865's restrictive
 * default: inline scripts and styles, `data:` images and media, no connections, no frames, no plugins.
 *
 * @param csp The view's declared origins (`_meta.ui.csp`), if any.
 * @returns The policy, one line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appCsp } from "./csp.ts";
 * assert.match(appCsp(undefined), /connect-src 'none'/);
 * assert.match(appCsp({ connectDomains: ["https://api.example"] }), /connect-src https:\/\/api\.example/);
 * ```
 */
export function appCsp(csp: AppCsp | undefined): string {
  const resources = join(csp?.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `img-src 'self' data:${resources}`,
    `font-src 'self'${resources}`,
    `media-src 'self' data:${resources}`,
    `connect-src${join(csp?.connectDomains) || " 'none'"}`,
    `frame-src${join(csp?.frameDomains) || " 'none'"}`,
    "object-src 'none'",
    `base-uri${join(csp?.baseUriDomains) || " 'self'"}`,
  ].join("; ");
}

const FEATURES: Record<keyof AppPermissions, string> = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
};

/**
 * Builds an iframe's `allow` attribute (Permission Policy) from the permissions a view asked for.
 *
 * @param permissions The view's `_meta.ui.permissions`, if any.
 * @returns The attribute's value (`""` for none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appAllow } from "./csp.ts";
 * assert.equal(appAllow({ camera: {}, clipboardWrite: {} }), "camera; clipboard-write");
 * ```
 */
export function appAllow(permissions: AppPermissions | undefined): string {
  const keys = Object.keys(FEATURES) as (keyof AppPermissions)[];
  return keys.filter((key) => permissions?.[key] !== undefined).map((key) => FEATURES[key]).join("; ");
}
