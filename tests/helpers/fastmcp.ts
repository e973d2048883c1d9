/**
 * The Python that runs FastMCP in the tests (`.venv-py`, or `INTEROP_PYTHON`), and why a FastMCP test skips when
 * it is missing: `.ci/run` installs it; a local run without it skips, saying how to install it.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { missingOutsideCi } from "./once-per-run.ts";
import { ROOT } from "./process.ts";

/** The Python interpreter with FastMCP 4.0.10 installed. */
export const PYTHON: string = process.env.INTEROP_PYTHON ?? `${ROOT}.venv-py/bin/python`;

/** Why FastMCP cannot run here, or `false` when it can. */
const MISSING: string | false = missingOutsideCi(
  !existsSync(PYTHON)
    ? `no Python at ${PYTHON}: python3 -m venv .venv-py && .venv-py/bin/pip install fastmcp==4.0.10 (or run .ci/run)`
    // Its installed version, not an import: importing FastMCP takes Python most of a second of CPU, in each process
    // that loads this module, and the tests that start it say so if it does not import.
    : spawnSync(PYTHON, ["-c", "import importlib.metadata as m; m.version('fastmcp')"]).status !== 0
    ? `${PYTHON} lacks fastmcp: .venv-py/bin/pip install fastmcp==4.0.10`
    : false,
);

/**
 * A `skip` option for the FastMCP tests named `what`: the reason (also printed) when FastMCP is missing, else false.
 *
 * @param what The tests, as the skip message names them.
 * @returns The reason, or false.
 */
export function fastmcpMissing(what: string): string | false {
  if (MISSING) console.error(`${what}: skipped: ${MISSING}`);
  return MISSING;
}
