/**
 * A remote resource or resource template as one of ours: listed with the remote's name, title,
 * description and MIME type, read from the remote (MCP 2025-11-25, Resources), its contents verbatim; a
 * caller's subscription to it is made at the remote (./remote-subscriptions.ts).
 *
 * @module
 */
import type { AnyResource, ResourceContentsInput } from "../core/definitions/resource.ts";
import type { WatchedResource } from "../core/definitions/resource-watch.ts";
import { parseUriTemplate } from "../core/definitions/uri-template.ts";
import { defineResource } from "../assembly/served-resources.ts";
import type { HopOptions } from "./hop-options.ts";
import type { Remote } from "./remote.ts";
import { remoteCompleter } from "./remote-completer.ts";
import { forwardRead } from "./forward-read.ts";
import { servableIcons } from "./remote-icons.ts";

/**
 * Defines the resource (or template) that forwards reads of a remote one.
 *
 * @param listed The resource as `resources/list` gives it, or the template as `resources/templates/list` does.
 * @param remote The remote.
 * @param hop How the second hop goes.
 * @param completes Whether the remote declared completions (a template's variables are then completed by it).
 * @returns The resource.
 * @throws {TypeError} When its URI or template is not one a resource of ours can have.
 */
export function proxiedResource(
  listed: Record<string, unknown>,
  remote: Remote,
  hop: HopOptions,
  completes: boolean,
): AnyResource {
  const template = typeof listed.uriTemplate === "string" ? listed.uriTemplate : undefined;
  const uri = template ?? String(listed.uri);
  let builder = defineResource(uri);
  if (typeof listed.name === "string") builder = builder.name(listed.name);
  if (typeof listed.title === "string") builder = builder.title(listed.title);
  if (typeof listed.description === "string") builder = builder.describe(listed.description);
  if (typeof listed.mimeType === "string") builder = builder.mimeType(listed.mimeType);
  if (typeof listed.size === "number") builder = builder.size(listed.size);
  if (typeof listed._meta === "object" && listed._meta !== null) {
    builder = builder.meta(listed._meta as Record<string, unknown>);
  }
  const icons = servableIcons(listed.icons);
  if (icons !== undefined) builder = builder.icons(icons);
  if (template !== undefined && completes) {
    for (const variable of parseUriTemplate(template).variables) {
      builder = builder.complete(
        variable as never,
        remoteCompleter(remote, { type: "ref/resource", uri }, variable, hop),
      );
    }
  }
  const resource = builder.read(async (_variables, ctx, read) => {
    const result = await forwardRead(ctx, remote, hop, (client, options) => client.readResource(read, options));
    return (Array.isArray(result.contents) ? result.contents : []) as ResourceContentsInput[];
  });
  return hop.watch === undefined ? resource : { ...resource, watch: hop.watch } as WatchedResource;
}
