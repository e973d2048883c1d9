/**
 * The stdio floor: reads newline-delimited JSON-RPC from stdin, parses each line (as every server
 * must), and answers a fixed `tools/call` result with the request's id: what the pipe and the runtime
 * cost, with nothing of a protocol around it.
 *
 * @module
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const g = globalThis as {
  Deno?: { stdin: { readable: ReadableStream<Uint8Array> }; stdout: { writable: WritableStream<Uint8Array> } };
  process?: { stdin: AsyncIterable<Uint8Array>; stdout: { write(bytes: Uint8Array): boolean } };
};
const input: AsyncIterable<Uint8Array> = g.Deno ? g.Deno.stdin.readable : g.process!.stdin;
const writer = g.Deno?.stdout.writable.getWriter();
const write = (text: string) => {
  const bytes = encoder.encode(text);
  if (writer !== undefined) void writer.write(bytes);
  else g.process!.stdout.write(bytes);
};
let pending = "";
for await (const chunk of input) {
  pending += decoder.decode(chunk, { stream: true });
  let at: number;
  while ((at = pending.indexOf("\n")) !== -1) {
    const line = pending.slice(0, at);
    pending = pending.slice(at + 1);
    const { id } = JSON.parse(line);
    write(
      `{"jsonrpc":"2.0","id":${
        JSON.stringify(id)
      },"result":{"content":[{"type":"text","text":"{\\"sum\\":3}"}],"structuredContent":{"sum":3}}}\n`,
    );
  }
}
