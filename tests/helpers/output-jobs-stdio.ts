/**
 * The output-schema jobs of `output-jobs.ts` served over stdio, for official clients that launch a
 * command. Run as a child process.
 */
import { createServer } from "../../mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";
import { SECRET } from "./long-running.ts";
import { outputJobTools } from "./output-jobs.ts";

const [crunch, watch] = outputJobTools();
serveStdio(createServer({ name: "jobs", version: "1.0.0", secret: SECRET }).tool(crunch).tool(watch));
