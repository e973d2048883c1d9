import { measure } from "mitata";
const CHUNK = "x".repeat(1023) + "\n";
const NOESC = "x".repeat(1024);
const big = Array.from({ length: 64 }, () => CHUNK).join("");
const enc = new TextEncoder();
const t: Record<string, () => unknown> = {
  "stringify chunk": () => JSON.stringify({ partial: CHUNK }),
  "stringify noesc": () => JSON.stringify({ partial: NOESC }),
  "stringify big": () => JSON.stringify({ content: [{ type: "text", text: big }] }),
  "encode 1KB": () => enc.encode(CHUNK),
  "encode 64KB": () => enc.encode(big),
  "join 64": () => Array.from({ length: 64 }, () => CHUNK).join(""),
};
for (const [n, f] of Object.entries(t)) { const s = await measure(f, { min_cpu_time: 100e6 }); console.log(n, (s.avg / 1e3).toFixed(2), "µs"); }
