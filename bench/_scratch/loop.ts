import { ours } from "../servers/ours.ts";
import { ADD_PARAMS, jsonPost, legacy, lite, modern, rpc } from "../requests.ts";
const which = process.argv[2] ?? "lite";
const req = which === "lite" ? lite("/calltools", "tools/call", ADD_PARAMS) : which === "modern" ? modern("tools/call", ADD_PARAMS) : which === "legacy" ? legacy("tools/call", ADD_PARAMS) : which === "nolen" ? jsonPost("/mcp-lite/v1/calltools", rpc("tools/call", ADD_PARAMS), {}, false) : lite("/listtools", "tools/list", {});
const n = Number(process.argv[3] ?? 200000);
const t0 = performance.now();
for (let i = 0; i < n; i++) await (await ours.fetch(req())).arrayBuffer();
console.log(which, ((performance.now() - t0) * 1000 / n).toFixed(2), "µs/op");
