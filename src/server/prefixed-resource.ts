/**
 * A resource (or template) served under a URI prefix (`server.group(…, { resourcePrefix })`), so that one child
 * (two proxies of one remote, say) can be mounted twice without their URIs clashing: `a+notes://{id}` serves
 * `notes://{id}`. What reaches the original is its own URI: a read's, a subscription's (`watch`); an update the
 * child raises for its URI is heard under the prefixed one (see ./namespaced-child.ts).
 *
 * @module
 */
import type { AnyResource } from "../core/definitions/resource.ts";
import type { WatchedResource } from "../core/definitions/resource-watch.ts";
import type { UriTemplate } from "../core/definitions/uri-template.ts";

/**
 * Checks a resource prefix: a literal (no template expression), so that prefixed templates stay templates of
 * the same variables, that keeps every URI it prefixes absolute (RFC 3986 §4.3): the start of the child's scheme
 * (`a+` makes `a+notes://…`) or a scheme of its own (`gw://a/`), without spaces.
 *
 * @param prefix The prefix.
 * @param where How errors name the grouping.
 * @throws {TypeError} When it is not.
 */
export function assertResourcePrefix(prefix: string, where: string): void {
  if (typeof prefix !== "string" || !/^[A-Za-z][A-Za-z0-9+.-]*(:[^\s{}]*)?$/.test(prefix)) {
    throw new TypeError(
      `${where}: resourcePrefix must start a URI's scheme ("a+") or hold one ("gw://a/"), without "{", "}" or spaces`,
    );
  }
}

/**
 * Serves a resource under a prefixed URI.
 *
 * @param resource The child's resource.
 * @param prefix The prefix, checked.
 * @returns The resource as served.
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
 */
function prefixedTemplate(template: UriTemplate, prefix: string): UriTemplate {
  return Object.freeze({
    template: `${prefix}${template.template}`,
    variables: template.variables,
    match: (uri: string) => uri.startsWith(prefix) ? template.match(uri.slice(prefix.length)) : undefined,
    expand: (variables: Record<string, string>) => `${prefix}${template.expand(variables)}`,
  });
}
