import { measure } from "mitata";
import { readBody } from "../../src/internal/body.ts";
import { ADD_PARAMS, jsonPost, rpc } from "../requests.ts";
const req = jsonPost("/x", rpc("tools/call", ADD_PARAMS), {}, false);
const dec = new TextDecoder();
const t: Record<string, () => unknown> = {
  "Request": () => req(),
  "text": async () => await req().text(),
  "readBody": async () => await readBody(req(), 1e6),
  "body.getReader": () => req().body!.getReader(),
  "getReader+read": async () => await req().body!.getReader().read(),
  "getReader+2read": async () => { const r = req().body!.getReader(); await r.read(); return await r.read(); },
  "for await": async () => { let s = ""; for await (const c of req().body!) s += dec.decode(c, { stream: true }); return s; },
  "bytes()": async () => await (req() as any).bytes(),
  "arrayBuffer": async () => await req().arrayBuffer(),
};
const best: Record<string, number> = {};
for (let round = 0; round < 3; round++) for (const [n, f] of Object.entries(t)) {
  const s = await measure(f, { min_cpu_time: 100e6 });
  best[n] = Math.min(best[n] ?? Infinity, s.avg);
}
console.log(Object.entries(best).map(([n, x]) => `${n}=${(x / 1e3).toFixed(2)}`).join("  "));
