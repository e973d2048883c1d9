// A stdio server's command run behind a recorder: `node recording-stdio.mjs <command> <args…>` starts the command,
// passes this process's stdin to it line by line and appends each line (each message a client sends it) to the file
// RECORD_TO names; its stdout is this process's. A test reads what a client sent a real stdio server.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import process from "node:process";
import { createInterface } from "node:readline";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "inherit", "ignore"] });
child.on("exit", (code) => process.exit(code ?? 1));
createInterface({ input: process.stdin }).on("line", (line) => {
  appendFileSync(process.env.RECORD_TO, line + "\n");
  child.stdin.write(line + "\n");
}).on("close", () => child.stdin.end());
