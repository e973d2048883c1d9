/**
 * Prompts on MCP-lite (MCP-lite spec v0.042 §8.1, prompts; the README's MCP-lite section specifies the
 * endpoints): `POST {base}/prompts` lists them as `/listtools` lists tools, `POST {base}/prompts/get`
 * renders one. Brought by `definePrompt()`, so a server without prompts does not load this.
 *
 * @module
 */
import { type AuthInfo, CacheSlot, describePrompt, scoping } from "../../core/mod.ts";
import { renderPrompt } from "../render-prompt.ts";
import type { LiteFeature } from "../prompt-feature.ts";

/** The `/prompts` bodies, per scope set. */
const LIST_BYTES = /* @__PURE__ */ new CacheSlot<Uint8Array<ArrayBuffer>>("mcplite:prompts");

const encoder = /* @__PURE__ */ new TextEncoder();

/** The MCP-lite part of the prompts feature: listing and rendering for the HTTP and gRPC bindings. */
export const PROMPTS_ON_LITE: LiteFeature = {
  mcplite: {
    prompts: {
      list: (registry, auth?: AuthInfo) =>
        scoping.visibleTo(registry, "prompts", auth, "mcplite:prompts").items().map(describePrompt),
      listBytes(registry, auth) {
        const key = scoping.visibleTo(registry, "prompts", auth, "mcplite:prompts").key;
        return registry.cached(
          LIST_BYTES,
          key,
          () => encoder.encode(JSON.stringify({ prompts: this.list(registry, auth) })),
        );
      },
      render: renderPrompt,
    },
  },
};
