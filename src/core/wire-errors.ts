/**
 * What a wire needs to answer an error beyond the error classes: the details it carries and the error a
 * reporter's replacement becomes. Reached as the core facade's `wireErrors` namespace.
 *
 * @module
 */
export { detailsOf, replacementError } from "./error.ts";
