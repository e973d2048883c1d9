/**
 * MCP Events, the receiver: a fetch handler that takes the server's webhook POSTs. It checks each one's
 * Standard Webhooks signature (`standardwebhooks`, with the secret given at subscribe), answers the verification
 * challenge by echoing it, drops a second delivery of the same `webhook-id`, and prints each event on stdout.
 *
 *   PORT=8788 deno run -A --unstable-no-legacy-abort examples/events/receiver.ts      PORT=8788 bun examples/events/receiver.ts
 *
 * Reads PORT, HOSTNAME and WEBHOOK_SECRET (a `whsec_` secret: the one the subscription names).
 */
import { Webhook } from "standardwebhooks";
import { env, serve } from "../../mod.ts";

const webhook = new Webhook(env("WEBHOOK_SECRET") ?? "");
/** The `webhook-id`s delivered already (a real receiver keeps them a while in its database). */
const seen = new Set<string>();

export async function receive(request: Request): Promise<Response> {
  if (request.method !== "POST") return new Response("POST only", { status: 405 });
  const body = await request.text();
  let message: { type?: string; challenge?: string; eventId?: string; name?: string; data?: unknown };
  try {
    message = webhook.verify(body, Object.fromEntries(request.headers)) as typeof message;
  } catch {
    return new Response("bad signature", { status: 401 });
  }
  if (message.type === "verification") return Response.json({ challenge: message.challenge });
  const id = request.headers.get("webhook-id")!;
  if (seen.has(id)) return new Response(null, { status: 204 }); // a retry of one already handled
  seen.add(id);
  console.log(`${message.name} ${JSON.stringify(message.data)} (webhook-id ${id})`);
  return new Response(null, { status: 204 });
}

if (import.meta.main) {
  await serve({ fetch: receive }); // PORT, HOSTNAME; prints "Listening on http://…"
}
