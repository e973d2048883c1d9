/**
 * `.longRunning({ endEvent })` takes only an event whose payload accepts a `TaskEnded` (issue 88, item 4): any
 * object, the whole shape, or fewer keys of it compile; a payload with other required keys, or a narrower status,
 * fails `deno check`. Checked, never run.
 */
import * as v from "valibot";
import { defineTool } from "../../mod.ts";
import { defineEvent, type TaskEnded } from "../../src/events/mod.ts";

const anyObject = defineEvent("any.ended");
const whole = defineEvent("whole.ended").payload(v.object({
  taskId: v.string(),
  tool: v.string(),
  status: v.picklist(["completed", "failed", "cancelled"]),
  error: v.optional(v.string()),
}));
const fewer = defineEvent("fewer.ended").payload(v.object({ taskId: v.string() }));
const other = defineEvent("order.shipped").payload(v.object({ orderId: v.string() }));
const narrower = defineEvent("narrow.ended").payload(v.object({ taskId: v.string(), status: v.literal("completed") }));

export const ok = [
  defineTool("a").longRunning({ endEvent: anyObject }).defer(() => 1),
  defineTool("b").longRunning({ endEvent: whole, retry: { attempts: 2 } }).defer(() => 1),
  defineTool("c").longRunning({ endEvent: fewer }).handle((_args, ctx) => ctx.defer(() => Promise.resolve(1))),
];

export const refused = [
  // @ts-expect-error: its payload requires orderId, which a TaskEnded lacks
  defineTool("d").longRunning({ endEvent: other }).defer(() => 1),
  // @ts-expect-error: its payload's status takes "completed" only
  defineTool("e").longRunning({ endEvent: narrower }).defer(() => 1),
];

export const payload: TaskEnded = { taskId: "t", tool: "a", status: "failed", error: "no data" };
