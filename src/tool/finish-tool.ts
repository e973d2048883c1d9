/**
 * Freezes a tool definition and gives it its continuation methods (`.redeem()`, `.cancel()`), which
 * return new frozen tools: a finished tool is never mutated.
 *
 * @module
 */
import type { AnyTool, CancelHandler, RedeemHandler } from "../core/definitions/tool.ts";

/** A tool's data, without its methods. */
export type ToolFields = Omit<AnyTool, "redeem" | "cancel">;

/**
 * Makes the finished, frozen tool from its fields.
 *
 * @param fields The definition.
 * @returns The tool.
 */
export function finishTool(fields: ToolFields): AnyTool {
  const tool: AnyTool = {
    ...fields,
    redeem(handler: RedeemHandler<unknown, unknown>): AnyTool {
      if (typeof handler !== "function") throw new TypeError(`tool "${fields.name}": .redeem() needs a function`);
      if (fields.mode !== "handle") {
        throw new TypeError(`tool "${fields.name}": a streaming tool cannot answer with promises`);
      }
      return finishTool({ ...fields, longRunning: fields.longRunning ?? {}, onRedeem: handler });
    },
    cancel(handler: CancelHandler<unknown>): AnyTool {
      if (typeof handler !== "function") throw new TypeError(`tool "${fields.name}": .cancel() needs a function`);
      return finishTool({ ...fields, onCancel: handler });
    },
  };
  return Object.freeze(tool);
}
