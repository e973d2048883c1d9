import { oursStreaming } from "../servers/ours.ts";
import { lite, modern } from "../requests.ts";
const params = { name: "stream", arguments: { n: 64 } };
const req = process.argv[2] === "modern" ? modern("tools/call", { ...params, _meta: { progressToken: "p" } }) : lite("/calltools", "tools/call", params, "text/event-stream");
const n = Number(process.argv[3] ?? 5000);
const t0 = performance.now();
for (let i = 0; i < n; i++) await (await oursStreaming.fetch(req())).arrayBuffer();
console.log(((performance.now() - t0) * 1000 / n).toFixed(2), "µs/op");
