/**
 * `defineResource()`: the immutable fluent builder for resources with a static URI and for RFC 6570
 * level-1 resource templates, whose variables reach the read handler typed.
 *
 * @module
 */
import { checkIcons, type Icon } from "../core/definitions/icon.ts";
import type { ContentAnnotations } from "../core/results/result.ts";
import type { Feature } from "../core/definitions/feature.ts";
import { type Completer, freezeCompleters } from "../core/definitions/completer.ts";
import { checkScopes } from "../core/definitions/scopes.ts";
import {
  type AnyResource,
  type CacheHint,
  checkCacheHint,
  type ReadHandler,
  type Resource,
} from "../core/definitions/resource.ts";
import { assertAbsoluteUri } from "../core/definitions/absolute-uri.ts";
import {
  isUriTemplate,
  parseUriTemplate,
  type UriTemplate,
  type UriVariables,
} from "../core/definitions/uri-template.ts";

interface ResourceState {
  readonly uri: string;
  readonly template: UriTemplate | undefined;
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: ContentAnnotations;
  readonly meta?: Record<string, unknown>;
  readonly icons?: readonly Icon[];
  readonly cache?: CacheHint;
  readonly completers?: Readonly<Record<string, Completer>>;
  readonly scopes?: readonly string[];
  /** What serves it (`src/core/definitions/feature.ts`), as the public `defineResource()` names it. */
  readonly servedBy: readonly Feature[];
}

/**
 * The fluent builder `defineResource()` returns. Every method returns a new builder.
 *
 * @typeParam TUri The URI or template, as a literal type: template variables are inferred from it.
 */
export class ResourceBuilder<TUri extends string> {
  readonly #state: ResourceState;

  /**
   * Creates a builder; use {@link defineResource} instead.
   *
   * @param state The definition so far.
   */
  constructor(state: ResourceState) {
    this.#state = Object.freeze(state);
  }

  #with(patch: Partial<ResourceState>): ResourceBuilder<TUri> {
    return new ResourceBuilder<TUri>({ ...this.#state, ...patch });
  }

  /**
   * Sets the programmatic name (defaults to the URI or template).
   *
   * @param name The name.
   * @returns A new builder.
   */
  name(name: string): ResourceBuilder<TUri> {
    if (typeof name !== "string" || name === "") {
      throw new TypeError(`resource ${this.#state.uri}: the name must be non-empty`);
    }
    return this.#with({ name });
  }

  /**
   * Sets a human-readable title.
   *
   * @param title The title.
   * @returns A new builder.
   */
  title(title: string): ResourceBuilder<TUri> {
    return this.#with({ title });
  }

  /**
   * Sets the description.
   *
   * @param description What the resource holds.
   * @returns A new builder.
   */
  describe(description: string): ResourceBuilder<TUri> {
    return this.#with({ description });
  }

  /**
   * Sets the MIME type of the contents (the default for entries the handler returns without one).
   *
   * @param mimeType The MIME type, e.g. `text/plain`.
   * @returns A new builder.
   */
  mimeType(mimeType: string): ResourceBuilder<TUri> {
    return this.#with({ mimeType });
  }

  /**
   * Sets the size in bytes, listed for static resources.
   *
   * @param bytes The size.
   * @returns A new builder.
   * @throws {TypeError} When the size is not a non-negative integer.
   */
  size(bytes: number): ResourceBuilder<TUri> {
    if (!Number.isSafeInteger(bytes) || bytes < 0) {
      throw new TypeError(`resource ${this.#state.uri}: size must be a non-negative integer`);
    }
    return this.#with({ size: bytes });
  }

  /**
   * Sets the annotations (audience, priority, last modification).
   *
   * @param annotations The annotations.
   * @returns A new builder.
   */
  annotations(annotations: ContentAnnotations): ResourceBuilder<TUri> {
    return this.#with({ annotations: { ...this.#state.annotations, ...annotations } });
  }

  /**
   * Sets the icons a client may show for the resource (or template) (MCP 2025-11-25, `Icon`), listed as its `icons`.
   *
   * @param icons The icons: `https:` URLs or image `data:` URIs (`http:` only on localhost).
   * @returns A new builder.
   * @throws {TypeError} For a refused `src` (`javascript:`, `file:`, `http:` off loopback, a `data:` URI
   *   that is not an image or is over 64 KiB), a MIME type that is not `image/*`, a bad size or theme.
   *
   * @example
   * ```ts
   * import { defineResource } from "../assembly/served-resources.ts";
   * const readme = defineResource("docs://readme")
   *   .icons([{ src: "https://example.com/doc.png", mimeType: "image/png", theme: "light" }])
   *   .read(() => "# Readme");
   * ```
   */
  icons(icons: readonly Icon[]): ResourceBuilder<TUri> {
    return this.#with({ icons: checkIcons(icons, `resource ${this.#state.uri}`) });
  }

  /**
   * Sets free-form metadata, listed as `_meta`.
   *
   * @param meta The metadata.
   * @returns A new builder.
   */
  meta(meta: Record<string, unknown>): ResourceBuilder<TUri> {
    return this.#with({ meta: { ...this.#state.meta, ...meta } });
  }

  /**
   * Sets the caching hint of reads (MCP `ttlMs` / `cacheScope`, and HTTP `Cache-Control`). The default
   * is `{ ttlMs: 0, scope: "private" }`: revalidate every time, never share across callers.
   *
   * @param hint The freshness and the scope.
   * @returns A new builder.
   * @throws {TypeError} When `ttlMs` is not a non-negative integer or the scope is unknown.
   */
  cache(hint: CacheHint): ResourceBuilder<TUri> {
    return this.#with({ cache: checkCacheHint(hint, `resource ${this.#state.uri}`) });
  }

  /**
   * Declares how to complete one template variable (`completion/complete` with `ref/resource`).
   *
   * @param variable The variable name.
   * @param completer Suggests values for what the user typed.
   * @returns A new builder.
   */
  complete(variable: keyof UriVariables<TUri> & string, completer: Completer): ResourceBuilder<TUri> {
    return this.#with({ completers: { ...this.#state.completers, [variable]: completer } });
  }

  /**
   * Requires OAuth scopes (MCP 2025-11-25, Authorization, Scope Challenge Handling): a caller whose
   * token lacks one does not see the resource in `resources/list` or `resources/templates/list`, and
   * reading, subscribing to or completing it answers 403 `insufficient_scope` naming what it needs, so
   * the client can ask for more (step-up).
   *
   * @param scopes The scopes, all required.
   * @returns A new builder.
   * @throws {TypeError} For an empty or malformed scope (RFC 6749 §3.3: printable ASCII, no space, `"` or `\`).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { defineResource } from "../../mod.ts";
   * const audit = defineResource("logs://audit").scopes("logs:read").read(() => "…");
   * assert.deepEqual(audit.scopes, ["logs:read"]);
   * ```
   */
  scopes(...scopes: string[]): ResourceBuilder<TUri> {
    return this.#with({
      scopes: checkScopes([...(this.#state.scopes ?? []), ...scopes], `resource ${this.#state.uri}`),
    });
  }

  /**
   * Finishes the resource with its read handler.
   *
   * @param handler Receives the template's variables (typed from the template), the call context and
   *   the URI; returns text, bytes or contents entries.
   * @returns The resource.
   * @throws {TypeError} When the handler is not a function or a completer names an unknown variable.
   */
  read(handler: ReadHandler<UriVariables<TUri>>): Resource<TUri> {
    const s = this.#state;
    if (typeof handler !== "function") throw new TypeError(`resource ${s.uri}: the read handler must be a function`);
    const resource: AnyResource = {
      uri: s.uri,
      template: s.template,
      name: s.name ?? s.uri,
      title: s.title,
      description: s.description,
      mimeType: s.mimeType,
      size: s.size,
      annotations: s.annotations,
      meta: s.meta,
      ...(s.icons === undefined ? {} : { icons: s.icons }),
      cache: s.cache,
      completers: freezeCompleters(s.completers, s.template?.variables ?? [], `resource ${s.uri}`),
      ...(s.scopes === undefined ? {} : { scopes: s.scopes }),
      read: handler as ReadHandler<Record<string, string>>,
      features: s.servedBy,
    };
    return Object.freeze(resource) as Resource<TUri>;
  }
}

/**
 * Starts the definition of a resource served by `servedBy`: the wire-free builder behind the public
 * `defineResource()` (`src/assembly/served-resources.ts`), which names the bindings' features that serve resources.
 *
 * @param uri The absolute URI or template.
 * @param servedBy The features that serve it (`src/core/definitions/feature.ts`).
 * @returns A fluent builder.
 * @throws {TypeError} When the URI is not absolute or the template is not level 1.
 */
export function resourceBuilder<TUri extends string>(uri: TUri, servedBy: readonly Feature[]): ResourceBuilder<TUri> {
  if (typeof uri === "string" && isUriTemplate(uri)) {
    return new ResourceBuilder<TUri>({ uri, template: parseUriTemplate(uri), servedBy });
  }
  assertAbsoluteUri(uri, "resource");
  return new ResourceBuilder<TUri>({ uri, template: undefined, servedBy });
}
