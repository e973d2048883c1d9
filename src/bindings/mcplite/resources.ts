/**
 * Resources on MCP-lite (this SDK's MCP-lite extension E4, in the style of §8.1's prompts): `POST {base}/resources`
 * and `POST {base}/resources/templates` list them as `/listtools` lists tools, `POST {base}/resources/read`
 * reads one as MCP's `resources/read` does (MCP 2025-11-25, Resources). Brought by `defineResource()`, so a
 * server without resources does not load this.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import {
  type AuthInfo,
  CacheSlot,
  contentsFromValue,
  describeResource,
  notFound,
  runHandler,
  sameGroupAs,
  scoping,
  withResultMeta,
} from "../../core/mod.ts";
import { resolveResource } from "../resolve-resource.ts";
import type { LiteResourceFeature } from "../resource-feature.ts";

/** The `/resources` and `/resources/templates` bodies, per scope set. */
const LIST_BYTES = /* @__PURE__ */ new CacheSlot<Uint8Array<ArrayBuffer>>("mcplite:resources");

const encoder = /* @__PURE__ */ new TextEncoder();

/** The MCP-lite part of the resources feature: listing and reading for the HTTP, socket and gRPC bindings. */
export const RESOURCES_ON_LITE: LiteResourceFeature = {
  mcplite: {
    resources: {
      list: (registry, auth: AuthInfo | undefined, templates) =>
        scoping.visibleTo(registry, "resources", auth, "mcplite:resources").items()
          .filter((r) => (r.template !== undefined) === templates).map(describeResource),
      listBytes(registry, auth, templates) {
        const key = scoping.visibleTo(registry, "resources", auth, "mcplite:resources").key;
        return registry.cached(LIST_BYTES, `${templates ? "templates" : "resources"}${key}`, () => {
          const listed = this.list(registry, auth, templates);
          return encoder.encode(JSON.stringify(templates ? { resourceTemplates: listed } : { resources: listed }));
        });
      },
      /**
       * The static URI first, then the templates in registration order; an unknown URI is
       * `resource_not_found` (with `data.uri`), never empty contents; a resource whose scopes the
       * caller lacks is refused before it is read. A read handler that asks the client answers an
       * input round, as a tool call does.
       */
      async read(registry, uri, caller) {
        if (typeof uri !== "string" || uri === "") {
          throw new ProtocolError("invalid_params", "Invalid params: uri must be a string");
        }
        const find = () => {
          const resolved = resolveResource(registry, uri);
          if (resolved === undefined) throw notFound(uri);
          return sameGroupAs({ ...resolved, scopes: resolved.resource.scopes }, resolved.resource);
        };
        return await runHandler(
          registry,
          { method: "resources/read", name: uri, scope: `resource:${uri}`, arguments: { uri }, ...caller },
          find,
          async ({ resource, variables }, call) => {
            const value = await resource.read(variables, call, uri);
            // What the handler set with `ctx.resultMeta()` goes in the result's `_meta`, on every wire.
            const result: Record<string, unknown> = { contents: contentsFromValue(value, uri, resource.mimeType) };
            return withResultMeta(result, call);
          },
        );
      },
    },
  },
};
