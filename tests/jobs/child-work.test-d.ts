/**
 * Type tests for `invoke()`: its input is the child tool's (`InferToolInput`), its value the JSON of the child's output
 * (`Jsonify<InferToolOutput>`), so a wrong field or a wrong use of the value does not compile. Checked by `deno check`,
 * never run.
 */
import * as v from "valibot";
import { defineTool, invoke } from "../../mod.ts";
import type { WorkContext } from "../../src/types.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

declare const work: WorkContext;

const resize = defineTool("resize")
  .input(v.object({ image: v.string(), width: v.number() }))
  .output(v.object({ url: v.string(), at: v.date() }))
  .longRunning()
  .defer(({ image, width }) => ({ url: `${image}@${width}`, at: new Date(0) }));

const made = await invoke(work, "resize", resize, { image: "cat", width: 64 });
export type Made = Expect<Equal<typeof made, { url: string; at: string }>>; // a Date comes back as its JSON string

// @ts-expect-error width is a number
await invoke(work, "resize", resize, { image: "cat", width: "64" });
// @ts-expect-error image is required
await invoke(work, "resize", resize, { width: 64 });
// @ts-expect-error the value has no such field
made.size;
