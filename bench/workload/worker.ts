/**
 * Runs one of the workload's servers on `WORKERS` processes sharing one port, as the benchmark's Node
 * server does (`node:cluster`: the primary forks, each worker listens; on Bun, whose cluster workers
 * share a port through SO_REUSEPORT on Linux, the same). Prints `LISTENING <port>` once every worker
 * listens.
 *
 *   node bench/workload/worker.ts <ours|official|floor|floor-mcp> <port> [workers=2]
 *   bun bench/workload/worker.ts <ours|official|floor|floor-mcp> <port> [workers=2]
 *
 * @module
 */
import cluster from "node:cluster";
import process from "node:process";

const SERVERS = ["ours", "official", "floor", "floor-mcp"];
const [impl = "", portText = "", workersText = "2"] = process.argv.slice(2);
if (!SERVERS.includes(impl) || !(Number(portText) > 0)) {
  throw new Error(`usage: worker.ts <${SERVERS.join("|")}> <port> [workers]`);
}
const port = Number(portText);

if (cluster.isPrimary) {
  const workers = Number(workersText);
  let listening = 0;
  for (let i = 0; i < workers; i++) {
    cluster.fork().on("message", (message) => {
      if (message === "listening" && ++listening === workers) console.log(`LISTENING ${port}`);
    });
  }
  cluster.on("exit", (_worker, code) => {
    if (code !== 0 && code !== null) console.error(`worker exited with ${code}`);
  });
  const stop = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
} else {
  const module = await import(`./${impl}.ts`) as { start(port: number): Promise<unknown> };
  await module.start(port);
  process.send!("listening");
}
