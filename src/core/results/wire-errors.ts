/**
 * What a wire needs to answer an error beyond the error classes: the details it carries, the error a
 * reporter's replacement becomes, and the detail an error keeps for `onError` alone. Reached as the core
 * facade's `wireErrors` namespace.
 *
 * @module
 */
export { detailsOf, replacementError } from "../../errors/error.ts";
export { reportDetail } from "./error-detail.ts";
