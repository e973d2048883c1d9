/**
 * How the server makes an answer from what it serialised itself, in the runtime contract so that a
 * runtime's adapter can put in its own makers without importing the server.
 *
 * @module
 */

/** The makers of the server's own JSON and text answers. */
export interface AnswerMakers {
  /** `Response.json(value, init)`. */
  json(value: unknown, init?: ResponseInit): Response;
  /** `new Response(text, init)`. */
  text(text: string, init: ResponseInit): Response;
}

/**
 * `Response.json(value, init)` and `new Response(text, init)`, unless a runtime adapter put in its own
 * (Node's `serve()` and `nodeHandler()`: the same `Response`, whose body stream is made only when
 * something reads it; `src/runtime/node/outgoing-response.ts`).
 */
export const answers: AnswerMakers = {
  json: (value, init) => Response.json(value, init),
  text: (text, init) => new Response(text, init),
};
