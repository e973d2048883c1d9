const mode = Deno.args[0];
Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`LISTENING ${port}`) }, async (request) => {
  const text = await request.text();
  if (mode === "signal") void request.signal;
  if (mode === "any") AbortSignal.any([request.signal, new AbortController().signal]);
  if (mode === "timer") clearTimeout(setTimeout(() => {}, 15000));
  if (mode === "anytimer") { AbortSignal.any([request.signal, new AbortController().signal]); clearTimeout(setTimeout(() => {}, 15000)); }
  return new Response(text, { headers: { "content-type": "application/json" } });
});
