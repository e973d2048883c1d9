/** The `stepping` tool's server over stdio, run as a child process by the tests. */
import { serveStdio } from "../../src/stdio/mod.ts";
import { steppingServer } from "./stepping.ts";

serveStdio(steppingServer());
