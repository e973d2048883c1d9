/**
 * The longest delay a timer takes: Node, Deno and Bun keep `setTimeout`'s delay in 32 bits (HTML's timer steps clamp
 * it likewise), so a longer one fires at once. Every bound of a timer's length, and every option that becomes one,
 * stops here.
 *
 * @module
 */

/** The longest delay `setTimeout` and `setInterval` take, in ms: 2^31 - 1. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
