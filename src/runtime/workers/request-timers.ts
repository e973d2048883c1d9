/**
 * Where timers belong to the request that armed them: workerd cancels a request's timers once it has
 * answered, and names itself `Cloudflare-Workers` in `navigator.userAgent` (Cloudflare Workers docs,
 * "Navigator").
 *
 * @module
 */

/** Whether this runtime ties timers to the request that armed them (workerd). */
export const TIMERS_PER_REQUEST: boolean =
  (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === "Cloudflare-Workers";
