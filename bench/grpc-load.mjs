// The gRPC load generator for scenario 4, on @grpc/grpc-js (the canonical Node client), run under Node
// in its own process by bench/loopback.ts:
//   node bench/grpc-load.mjs <host:port> <seconds> [in-flight=10]
// Keeps `in-flight` unary CallTool add(1, 2) calls going on one channel (one HTTP/2 connection) for
// 1 s of warm-up, then for `seconds`; prints one JSON line: { rps, p50, p99 (ms), total, errors }.
// Every call has a deadline, so the script always ends.
import { credentials, loadPackageDefinition } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { fileURLToPath } from "node:url";

const [address, secondsArg, inFlightArg] = process.argv.slice(2);
const seconds = Number(secondsArg ?? 5);
const inFlight = Number(inFlightArg ?? 10);
const protoPath = fileURLToPath(new URL("../proto/mcplite/mcplite.proto", import.meta.url));
const definition = loadSync(protoPath, { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true });
const { mcplite } = loadPackageDefinition(definition);
const client = new mcplite.MCPLite(address, credentials.createInsecure());
const request = {
  name: "add",
  arguments: { fields: { a: { numberValue: 1 }, b: { numberValue: 2 } } },
};

function call() {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    client.CallTool(request, { deadline: new Date(Date.now() + 10_000) }, (error, reply) => {
      const ok = !error && reply?.result?.fields?.structuredContent !== undefined;
      resolve({ ok, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    });
  });
}

async function run(ms, record) {
  const end = Date.now() + ms;
  const latencies = [];
  let errors = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (Date.now() < end) {
      const { ok, ms } = await call();
      if (!ok) errors++;
      else if (record) latencies.push(ms);
    }
  }));
  return { latencies, errors };
}

await run(1000, false);
const { latencies, errors } = await run(seconds * 1000, true);
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
console.log(
  JSON.stringify({
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    total: latencies.length + errors,
    errors,
  }),
);
client.close();
