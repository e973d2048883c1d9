import { measure } from "mitata";
const CHUNK = "x".repeat(1023) + "\n";
const big = Array.from({ length: 64 }, () => CHUNK).join("");
const ESC: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const re = /["\\\u0000-\u001f]/g;
const esc = (c: string) => ESC[c] ?? "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
const quote = (s: string) => '"' + s.replace(re, esc) + '"';
const splitQuote = (s: string) => { const parts = s.split("\n"); return parts.map((p) => JSON.stringify(p)).join('+'); };
console.log(quote(big) === JSON.stringify(big));
const t: Record<string, () => unknown> = {
  "stringify big": () => JSON.stringify(big),
  "regex quote big": () => quote(big),
  "stringify chunk": () => JSON.stringify(CHUNK),
  "regex quote chunk": () => quote(CHUNK),
  "stringify noesc big": () => JSON.stringify(big.replaceAll("\n", "y")),
};
for (const [n, f] of Object.entries(t)) { const s = await measure(f, { min_cpu_time: 100e6 }); console.log(n, (s.avg / 1e3).toFixed(2), "µs"); }
