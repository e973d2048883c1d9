const mode = process.argv[2];
const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (request) => {
  const text = await request.text();
  if (mode === "signal") void request.signal;
  if (mode === "any") AbortSignal.any([request.signal, new AbortController().signal]);
  if (mode === "timer") clearTimeout(setTimeout(() => {}, 15000));
  return new Response(text, { headers: { "content-type": "application/json" } });
} });
console.log(`LISTENING ${s.port}`);
