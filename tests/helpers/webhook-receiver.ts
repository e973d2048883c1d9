/**
 * A webhook receiver on 127.0.0.1 for the delivery tests: it records each request (headers, body) and answers
 * with what the test scripts, one answer per request in order (the last repeated), started and stopped by the test.
 */
import { createServer as createHttpServer } from "node:http";
import { changes } from "./wait.ts";

/** One request the receiver got. */
export interface Received {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** An answer: a status, headers, and a body (a function of the request's body: an echo). */
export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string | ((body: string) => string);
}

/** A running receiver. */
export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly received: Received[];
  /** Sets the answers, in order (the last one repeats). */
  answer(...answers: Answer[]): void;
  /** Waits (at most 10 s) until `count` requests arrived. */
  until(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver that answers 204 until told otherwise. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let answers: Answer[] = [{ status: 204 }];
  const arrivals = changes();
  const http = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) headers[name] = String(value);
      received.push({ path: request.url ?? "/", headers, body });
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      const text = typeof answer.body === "function" ? answer.body(body) : answer.body;
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(text);
      arrivals.changed();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answer: (...next) => void (answers = next),
    until: (count) =>
      arrivals.until(() => received.length >= count, () => `${count} requests (${received.length} arrived)`, 10_000),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
