/**
 * Server→client requests of the 2025 revisions (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`): sent on the call's SSE stream; the client POSTs its answer to the same endpoint. The
 * table of questions awaiting an answer lives in this process, so **the answer must reach the
 * instance that asked** (one instance, or session affinity on `Mcp-Session-Id` behind a load
 * balancer). Ids are random UUIDs, and an answer must carry the session id of the call that asked.
 * (The 2026-07-28 revision asks through input-required results instead, which need no such table.)
 *
 * @module
 */
import { ToolError } from "../../errors/error.ts";
import { requestMessage } from "../jsonrpc.ts";

/** Where a question goes: the stream of the call that asks. */
export interface QuestionChannel {
  /** Aborted when the call ends; the question is then dropped. */
  readonly signal: AbortSignal;
  /** Sends the serialised request to the client. */
  send(message: string): void;
}

interface Question {
  readonly method: string;
  readonly session: string | null;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** The table of questions awaiting an answer. */
export class PendingRequests {
  readonly #questions = new Map<string, Question>();

  /** How many questions await an answer. */
  get size(): number {
    return this.#questions.size;
  }

  /**
   * Asks the client: sends a JSON-RPC request on the call's stream and waits for the answer.
   *
   * @param channel The call's stream.
   * @param session The call's session id, which the answer must carry.
   * @param method The client method.
   * @param params Its params.
   * @returns The client's result.
   * @throws {ToolError} When the client answers with an error; the call's abort reason when it ends.
   */
  ask(
    channel: QuestionChannel,
    session: string | null,
    method: string,
    params: Record<string, unknown>,
  ): Promise<unknown> {
    const signal = channel.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = `mcplite-${crypto.randomUUID()}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#questions.delete(id);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#questions.set(id, {
        method,
        session,
        resolve: (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        reject: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      channel.send(requestMessage(id, method, params));
    });
  }

  /**
   * Delivers a client's answer (a JSON-RPC response POSTed to the endpoint).
   *
   * @param message The response: `{ id, result }` or `{ id, error }`.
   * @param session The `Mcp-Session-Id` it came with.
   * @returns Whether it answered a question of this instance.
   */
  answer(message: Record<string, unknown>, session: string | null): boolean {
    const id = message.id;
    if (typeof id !== "string") return false;
    const question = this.#questions.get(id);
    if (question === undefined || (question.session !== null && question.session !== session)) return false;
    this.#questions.delete(id);
    const error = message.error as { code?: unknown; message?: unknown } | undefined;
    if (error !== undefined && error !== null) {
      const text = typeof error.message === "string" ? error.message : "error";
      question.reject(
        new ToolError(`The client answered ${question.method} with an error: ${text}`, {
          data: { method: question.method, code: error.code, message: text },
        }),
      );
    } else {
      question.resolve(message.result);
    }
    return true;
  }
}
