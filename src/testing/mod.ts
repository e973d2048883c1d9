/**
 * Conformance cases for what plugs into a server: `resultStoreCases()` checks a `ResultStore` of your own against
 * the contract every store of the SDK passes, under whatever test runner you use.
 *
 * @module
 */
export { resultStoreCases } from "./result-store-cases.ts";
