/**
 * Code mode (`@mcplite/sdk/code-mode`): a model writes one small program against a server's tools, run in a
 * sandbox, instead of calling them one at a time. `createServer({ codeMode: codeMode() })` serves a discover
 * tool and an execute tool; the sandbox is QuickJS compiled to WebAssembly, on a thread of its own
 * (`workerExecutor()`) or the server's (`quickjsExecutor()`), or any `CodeExecutor`. Guide: docs/guides/code-mode.md.
 *
 * @module
 */
export { codeMode, type CodeModeOptions } from "./code-mode.ts";
export type { CodeExecutor } from "./executor.ts";
export type { SavedProgramsOptions } from "./saved-programs.ts";
export { quickjsExecutor, type QuickjsExecutorOptions } from "./quickjs/quickjs-executor.ts";
export { workerExecutor, type WorkerExecutorOptions } from "./worker/worker-executor.ts";
