/**
 * `group`: the group support a server plugs in, what `server.group()` runs. `createServer` of
 * `@mcplite/sdk` always passes it; a server from `@mcplite/sdk/lite` has it only when given it, so that
 * a bundle that groups no server leaves out the mounting and its name checks.
 *
 * @module
 */
import { ComposedDefinitions } from "../core/definitions/composed-definitions.ts";
import { type GroupSupport, mountGroup } from "../server/server-group.ts";
import { type Capability, capability } from "../server/server-capability.ts";

/**
 * Group support, for `createServer({ group })` of `@mcplite/sdk/lite` (that of `@mcplite/sdk` has it
 * already): `server.group()` then serves another server's tools, prompts, resources and skills.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool, group } from "../lite/mod.ts";
 *
 * const git = createServer({ name: "git", version: "1.0.0" })
 *   .tool(defineTool("clone").describe("Clones").input(v.object({ url: v.string() })).handle(({ url }) => url));
 * const app = createServer({ name: "app", version: "1.0.0", group }).group("git", git);
 * assert.deepEqual(app.tools.map((t) => t.name), ["git.clone"]);
 * ```
 */
export const group: Capability<"group"> = /* @__PURE__ */ capability(
  "group",
  /* @__PURE__ */ Object.assign((...args: Parameters<GroupSupport>) => mountGroup(...args), {
    registry: ComposedDefinitions,
  }),
);
