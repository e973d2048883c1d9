/**
 * The one function that does nothing, for a callback or a handle with nothing to undo.
 *
 * @module
 */

/** Does nothing. */
export function noop(): void {}
