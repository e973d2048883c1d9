/**
 * An MCP event as the server holds it (SEP-3415 "Events Extension"; ChatGPT's MCP Events): a name, the schema of
 * a subscription's arguments and of each occurrence's payload, and the hook that decides which subscriptions an
 * occurrence goes to. Wire-free: `defineEvent()` (`@mcplite/sdk/events`) makes one, and the hook it carries
 * (`~serve`) attaches the events runtime to the server that registers it, so a server without events loads none.
 *
 * @module
 */
import type { CompiledSchema, InferSchemaInput, NotAShape, SchemaInput } from "../schema.ts";

/**
 * An event (`defineEvent()` from `@mcplite/sdk/events`): an immutable value, each builder method returning a new
 * one. Register it with `server.event(definition)`; raise it with `server.emit(name, payload)`.
 *
 * @typeParam Name The event's name (`order.shipped`).
 * @typeParam Input A subscription's arguments, as the input schema gives them.
 * @typeParam Payload An occurrence's payload, as the payload schema gives it.
 */
export interface EventDefinition<Name extends string = string, Input = unknown, Payload = unknown> {
  /** The name, dotted lowercase words (`order.shipped`). */
  readonly name: Name;
  /** What the event tells, listed by `events/list`. */
  readonly description: string | undefined;
  /** Phantom: the types of the arguments and of the payload, for `server.emit()` and the typed client. */
  readonly "~types"?: { readonly input: Input; readonly payload: Payload };
  /** The arguments' schema, compiled (an empty object by default). */
  readonly "~input": CompiledSchema;
  /** The payload's schema, compiled (any JSON object by default). */
  readonly "~payload": CompiledSchema;
  /** Decides whether an occurrence goes to a subscription; `() => true` by default. */
  "~match"(
    input: Input,
    payload: Payload,
    caller: { readonly principal: string; readonly subscriptionId: string; readonly profile: "chatgpt" | "sep" },
  ): boolean | Promise<boolean>;
  /**
   * Serves the event on a server: attaches the events runtime once per server (the one given back), registers the
   * event with it, and returns it; `server.event()` calls it. Opaque to you.
   */
  readonly "~serve": (
    server: object,
    options: object,
    attached: unknown,
  ) => {
    /** Raises an occurrence: `server.emit()`. */
    emit(
      name: string,
      payload: unknown,
      options?: { readonly id?: string },
    ): Promise<{ readonly eventId: string; readonly deliveries: number }>;
  };
  /**
   * Sets the description.
   *
   * @param description What the event tells.
   * @returns A new definition.
   */
  describe(description: string): EventDefinition<Name, Input, Payload>;
  /**
   * Sets the schema of a subscription's arguments (`events/subscribe`'s `arguments`, validated there: -32602).
   *
   * @param schema A valibot object schema, a Standard Schema with JSON Schema, or a JSON Schema object.
   * @returns A new definition, typed with the arguments.
   */
  input<S extends SchemaInput>(schema: S & NotAShape<S>): EventDefinition<Name, InferSchemaInput<S>, Payload>;
  /**
   * Sets the schema of an occurrence's payload (`server.emit()` validates it; the webhook body's `data`).
   *
   * @param schema A valibot object schema, a Standard Schema with JSON Schema, or a JSON Schema object.
   * @returns A new definition, typed with the payload.
   */
  payload<S extends SchemaInput>(schema: S & NotAShape<S>): EventDefinition<Name, Input, InferSchemaInput<S>>;
  /**
   * Sets which subscriptions an occurrence goes to.
   *
   * @param match Given a subscription's arguments, the payload and who subscribed, says whether it goes there.
   * @returns A new definition.
   */
  match(match: EventDefinition<Name, Input, Payload>["~match"]): EventDefinition<Name, Input, Payload>;
  /** The delivery modes it is served in (`events/list`'s `delivery`); every mode the server serves by default. */
  readonly "~delivery": readonly ("webhook" | "poll" | "push")[];
  /**
   * Sets the delivery modes it is served in (SEP-3415: `events/poll`, `events/stream`, webhook by `events/subscribe`):
   * another mode is refused with Unsupported. Push is listed only where the server serves it.
   *
   * @param modes The modes, at least one.
   * @returns A new definition.
   */
  delivery(modes: readonly ("webhook" | "poll" | "push")[]): EventDefinition<Name, Input, Payload>;
}

/**
 * The payload of a long-running tool's end event (`.longRunning({ endEvent })`): which call ended, and how. It names
 * the id its caller holds (the MCP task id when the call became a task, else the promise token), never the result,
 * which may be large: the caller fetches it with `tasks/get` or `redeem`. An end event's `.payload()` schema must
 * accept it: extra keys of a later version included (`v.object()`, not `v.strictObject()`).
 *
 * @example
 * ```ts
 * import * as v from "valibot";
 * import { defineEvent, type TaskEnded } from "@mcplite/sdk/events";
 *
 * const taskEnded = defineEvent("report.ended").payload(v.object({
 *   taskId: v.string(),
 *   tool: v.string(),
 *   status: v.picklist(["completed", "failed", "cancelled"]),
 *   error: v.optional(v.string()),
 * }));
 * const sample: TaskEnded = { taskId: "t1", tool: "report", status: "failed", error: "no data" };
 * void [taskEnded, sample];
 * ```
 */
export type TaskEnded = {
  /** The id the caller holds: the MCP task id (`tasks/get`) when the call became a task, else the promise token. */
  readonly taskId: string;
  /** The tool that was called. */
  readonly tool: string;
  /**
   * How its work ended: `completed`, `failed` (it threw, answered `isError`, timed out or was lost with its
   * instance), or `cancelled`.
   */
  readonly status: "completed" | "failed" | "cancelled";
  /** `failed`: what the caller reads of the failure (the error's message, or the `isError` result's text). */
  readonly error?: string;
};

/**
 * An event a long-running tool's calls raise when their work ends (`.longRunning({ endEvent })`): one from
 * `defineEvent()`, whose payload must take a {@link TaskEnded} (`.longRunning()` checks it: {@link EndEventFits}).
 * The server that calls the tool must serve it (`server.event()`), and so must a worker that runs its work.
 */
export interface EndEvent {
  /** The event's name. */
  readonly name: string;
  /** Phantom: its payload's type. */
  readonly "~types"?: { readonly payload: unknown };
}

/**
 * `unknown` when the options' `endEvent` (if any) has a payload that takes a {@link TaskEnded}; otherwise a type
 * that no options object matches, naming the problem, so that `.longRunning({ endEvent })` does not compile.
 *
 * @typeParam O The options given to `.longRunning()`.
 */
export type EndEventFits<O> = O extends { readonly endEvent: infer E }
  ? TaskEnded extends NonNullable<(E & EndEvent)["~types"]>["payload"] ? unknown
  : { readonly endEvent: "its payload must accept a TaskEnded: taskId, tool, status, error?" }
  : unknown;

/**
 * The events options of a server (`createServer({ events })`): callback URLs allowed for development, lifetimes,
 * budgets, and how deliveries are retried.
 */
export interface EventsOptions {
  /**
   * Origins a callback URL may have although it is `http` or resolves to a loopback or private address
   * (`["http://127.0.0.1:8787"]`; without a port, every port of that scheme and host: `["http://127.0.0.1"]`):
   * development and tests only. Without it, callbacks are `https` to public addresses only (checked at subscribe and
   * at every delivery).
   */
  readonly allowCallbacks?: readonly string[];
  /** A subscription's lifetime when `events/subscribe` names none, in ms (default 24 hours). */
  readonly ttlMs?: number;
  /** The longest lifetime granted, in ms (default 7 days); a longer `ttlMs` asked for is cut to it. */
  readonly maxTtlMs?: number;
  /** How long a rotated-out secret still signs deliveries beside the new one, in ms (default 24 hours). */
  readonly rotationGraceMs?: number;
  /** The most subscriptions one principal holds (default 100); one more is refused with -32013. */
  readonly maxSubscriptions?: number;
  /**
   * How long each occurrence is kept in the occurrence log, in ms (default 24 hours): `events/poll`, and a subscription
   * taken with a `cursor` or `maxAgeMs`, reach back this far at most (then `truncated: true`).
   */
  readonly retainMs?: number;
  /** The most occurrences of one event the log keeps (default 256): older ones are dropped first. */
  readonly maxOccurrences?: number;
  /** How long `events/poll` tells a client to wait before it polls again when it has read all, in ms (default 5 s). */
  readonly pollIntervalMs?: number;
  /**
   * The most push streams (`events/stream`) open at once on this server (default 256); one more is refused with
   * ResourceExhausted (-32013, or SEP-3415's -32025). Push streams are exempt from the request budgets (`limits`).
   */
  readonly maxStreams?: number;
  /** The most push streams one caller holds open at once (default 64: a quarter of `maxStreams`'s default). */
  readonly maxStreamsPerCaller?: number;
  /**
   * How often a push stream with nothing to send sends `notifications/events/heartbeat`, carrying its cursor, in ms
   * (default 25 000; at most 30 000, which SEP-3415 "Push" requires).
   */
  readonly heartbeatMs?: number;
  /**
   * How often, while push streams wait on an event, this instance reads the head of its log for occurrences emitted on
   * other instances sharing the store, in ms (default 1 000: one read per event, however many streams wait); those
   * emitted on this instance reach its streams at once.
   */
  readonly streamPollMs?: number;
  /** The waits between a delivery's attempts, in ms (default 1 s, 5 s, 30 s, 2 min, 10 min). */
  readonly retryDelaysMs?: readonly number[];
  /** How many occurrences in a row may fail for good before the subscription is suspended (default 5). */
  readonly suspendAfter?: number;
}
