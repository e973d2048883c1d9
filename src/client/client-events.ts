/**
 * MCP Events in the client (ChatGPT's profile and SEP-3415): `events/list` followed to its last page,
 * `events/subscribe` by webhook with the caller's Standard Webhooks secret (checked before it is sent),
 * `events/unsubscribe` by id or by what the subscription was taken with, `events/poll` at the server's pace
 * (`hasMore`: again at once; `nextPollMs`: not before), and `events/stream` (./event-stream.ts). Loaded with its
 * first use.
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";
import { rpcError } from "./errors.ts";
import type { RequestOptions } from "./client-types.ts";
import type {
  EventInfo,
  EventPoll,
  EventsApi,
  EventsOf,
  EventSubscription,
  PollOptions,
  StreamOptions,
  SubscribeOptions,
} from "./event-types.ts";
import { sleep } from "../internal/sleep.ts";
import { streamEvents } from "./event-stream.ts";

/** The events of a client without a server type. */
type UntypedEvents = EventsOf<unknown>;
import { ListCursor } from "./list-cursor.ts";
import { webhookSecretFits } from "../internal/webhook-secret.ts";

/** What the events API needs of the client: sending a request. */
export interface EventsBackend {
  /** Sends a request and returns its result. */
  request(method: string, params: Record<string, unknown>, options?: RequestOptions): Promise<Record<string, unknown>>;
}

/** Refuses a secret Standard Webhooks would not sign with (none given included), as a TypeError. */
function checkSecret(secret: unknown): string {
  if (!webhookSecretFits(secret)) {
    throw new TypeError(
      "events.subscribe(): `secret` is required: `whsec_` and the base64 of 24 to 64 random bytes (Standard Webhooks)",
    );
  }
  return secret as string;
}

/**
 * Creates `client.events` over a client.
 *
 * @param backend The client's requests.
 * @returns The API.
 */
export function createEventsApi(backend: EventsBackend): EventsApi<UntypedEvents> {
  const delivery = (url: string | URL) => ({ mode: "webhook", url: String(new URL(url)) });
  // When the server said to poll again from each cursor it answered last (`nextPollMs`): the newest few.
  const due = new Map<string, number>();
  return {
    async list(options) {
      const events: EventInfo[] = [];
      const walk = new ListCursor("events/list");
      let cursor: string | undefined;
      do {
        const result = await backend.request("events/list", cursor === undefined ? {} : { cursor }, options);
        if (!Array.isArray(result.events)) throw rpcError("events/list returned no events array", { data: result });
        events.push(...result.events.filter((e): e is EventInfo => isObject(e) && typeof e.name === "string"));
        cursor = walk.next(result);
      } while (cursor !== undefined);
      return events;
    },
    async subscribe(name, subscription: SubscribeOptions<Record<string, unknown>>, options) {
      const secret = checkSecret(subscription.secret);
      const { ttlMs, maxAgeMs, cursor } = subscription;
      const result = await backend.request("events/subscribe", {
        name,
        arguments: subscription.arguments ?? {},
        delivery: { ...delivery(subscription.url), secret },
        // SEP-3415: a `null` cursor is now, `maxAgeMs` beside it ignored: asked for, the cursor is left out.
        ...(cursor === undefined || (cursor === null && maxAgeMs !== undefined) ? {} : { cursor }),
        ...(ttlMs === undefined ? {} : { ttlMs }),
        ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
      }, options);
      if (typeof result.id !== "string" || result.id === "") {
        throw rpcError("events/subscribe returned no subscription id", { data: result });
      }
      const answer: EventSubscription = {
        id: result.id,
        refreshBefore: typeof result.refreshBefore === "string" ? result.refreshBefore : null,
        cursor: typeof result.cursor === "string" ? result.cursor : null,
        truncated: result.truncated === true,
      };
      return answer;
    },
    async unsubscribe(
      target: string | { id: string },
      second?: Pick<SubscribeOptions<Record<string, unknown>>, "url" | "arguments"> | RequestOptions,
      third?: RequestOptions,
    ) {
      if (typeof target !== "string") {
        if (typeof target?.id !== "string") throw new TypeError("events.unsubscribe() needs an event name or { id }");
        await backend.request("events/unsubscribe", { id: target.id }, second as RequestOptions | undefined);
        return;
      }
      const subscription = second as Pick<SubscribeOptions<Record<string, unknown>>, "url" | "arguments">;
      await backend.request("events/unsubscribe", {
        name: target,
        arguments: subscription.arguments ?? {},
        delivery: delivery(subscription.url),
      }, third);
    },
    async poll(name, poll: PollOptions<Record<string, unknown>> = {}, options) {
      const { cursor = null, maxAgeMs, maxEvents = 100 } = poll;
      const wait = cursor === null ? 0 : (due.get(cursor) ?? 0) - Date.now();
      if (wait > 0) await sleep(wait, options?.signal);
      const answer: EventPoll<unknown> = { events: [], cursor: "", truncated: false, hasMore: false, nextPollMs: 0 };
      let from = cursor;
      for (let round = 0; round < 100; round++) {
        const page = await backend.request("events/poll", {
          name,
          arguments: poll.arguments ?? {},
          // SEP-3415: a `null` cursor is now, `maxAgeMs` beside it ignored: from now and that far back, it is left out.
          ...(from === null && maxAgeMs !== undefined ? { maxAgeMs } : { cursor: from }),
          maxEvents: maxEvents - answer.events.length,
        }, options);
        if (!Array.isArray(page.events) || typeof page.cursor !== "string") {
          throw rpcError("events/poll returned no events array or cursor", { data: page });
        }
        answer.events.push(...page.events as EventPoll<unknown>["events"]);
        from = answer.cursor = page.cursor;
        answer.truncated ||= page.truncated === true;
        answer.hasMore = page.hasMore === true;
        answer.nextPollMs = Number.isFinite(page.nextPollMs) ? Math.max(0, page.nextPollMs as number) : 0;
        if (!answer.hasMore || answer.events.length >= maxEvents) break;
      }
      if (cursor !== null) due.delete(cursor);
      due.set(answer.cursor, Date.now() + answer.nextPollMs);
      if (due.size > 16) due.delete(due.keys().next().value!);
      return answer;
    },
    stream: (name: string, stream?: StreamOptions<Record<string, unknown>>) => streamEvents(backend, name, stream),
  } as EventsApi<UntypedEvents>;
}
