/**
 * A resource (or template) served under a URI prefix (`server.group(…, { resourcePrefix })`), so that one child
 * (two proxies of one remote, say) can be mounted twice without their URIs clashing: `a+notes://{id}` serves
 * `notes://{id}`. What reaches the original is its own URI: a read's, a subscription's (`watch`); an update the
 * child raises for its URI is heard under the prefixed one (see ./namespaced-child.ts).
 *
 * @module
 */
import { assertAbsoluteUri } from "../core/absolute-uri.ts";
import type { AnyResource } from "../core/resource.ts";
import type { WatchedResource } from "../core/resource-watch.ts";
import type { UriTemplate } from "../core/uri-template.ts";

/**
 * Checks a resource prefix: a literal (no template expression), so that prefixed templates stay templates of
 * the same variables.
 *
 * @param prefix The prefix.
 * @param where How errors name the grouping.
 * @throws {TypeError} When it is empty or holds `{` or `}`.
 */
export function assertResourcePrefix(prefix: string, where: string): void {
  if (typeof prefix !== "string" || prefix === "" || /[{}]/.test(prefix)) {
    throw new TypeError(`${where}: resourcePrefix must be a non-empty string without "{" or "}"`);
  }
}

/**
 * Serves a resource under a prefixed URI.
 *
 * @param resource The child's resource.
 * @param prefix The prefix, checked.
 * @returns The resource as served.
 * @throws {TypeError} When the prefixed URI is not an absolute URI (a prefix without a scheme before a relative one).
 */
export function prefixedResource(resource: AnyResource, prefix: string): AnyResource {
  const own = (uri: string) => uri.startsWith(prefix) ? uri.slice(prefix.length) : uri;
  const uri = `${prefix}${resource.uri}`;
  const watch = (resource as WatchedResource).watch;
  return {
    ...resource,
    uri,
    template: resource.template === undefined ? undefined : prefixedTemplate(resource.template, prefix),
    read: (variables, ctx, read) => resource.read(variables, ctx, own(read)),
    ...(watch === undefined ? {} : { watch: (watched: string, caller?: string) => watch(own(watched), caller) }),
  } as AnyResource;
}

/**
 * The child's template under the prefix, made from its parsed one (the prefix is a literal, so the variables
 * and what they match are the child's): no template parser in a server that defines no resource.
 *
 * @param template The child's template.
 * @param prefix The prefix, checked.
 * @returns The template as served.
 * @throws {TypeError} When the prefixed template is not an absolute URI.
 */
function prefixedTemplate(template: UriTemplate, prefix: string): UriTemplate {
  const written = `${prefix}${template.template}`;
  assertAbsoluteUri(written, `resource template ${JSON.stringify(written)}`);
  return Object.freeze({
    template: written,
    variables: template.variables,
    match: (uri: string) => uri.startsWith(prefix) ? template.match(uri.slice(prefix.length)) : undefined,
    expand: (variables: Record<string, string>) => `${prefix}${template.expand(variables)}`,
  });
}
