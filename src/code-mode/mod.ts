/**
 * Code mode: a model writes one small program against a server's tools, run in a sandbox. This entry
 * point holds the executor contract and its default, QuickJS compiled to WebAssembly.
 *
 * @module
 */
export type { CodeExecutor } from "./executor.ts";
export { quickjsExecutor } from "./quickjs/quickjs-executor.ts";
