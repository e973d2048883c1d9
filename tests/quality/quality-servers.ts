/**
 * Two servers for the tool-quality check's tests: one with the problems the check is for, one with the same tools
 * written well.
 */
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";

/** A string argument with a description. */
export const described = (text: string) => v.pipe(v.string(), v.description(text));

/** A server with the problems the check is for: a confusable pair, undocumented arguments, a fixed-set string. */
export function messyServer() {
  return createServer({ name: "messy", version: "1.0.0" })
    .tool(defineTool("get_user").describe("Gets a user.").input(v.object({ id: v.string() })).handle(() => ({})))
    .tool(defineTool("get_users").describe("Gets users.").input(v.object({ id: v.string() })).handle(() => ({})))
    .tool(
      defineTool("list_orders")
        .describe("Lists a customer's orders, newest first.")
        .input(v.object({
          customer: described("The customer's id, e.g. cus_123"),
          status: described('Only orders in this state: "pending", "shipped" or "delivered"'),
        }))
        .handle(() => []),
    );
}

/** The same tools written well: each says what it does and when, every argument described, the set an enum. */
export function cleanServer() {
  return createServer({ name: "clean", version: "1.0.0" })
    .tool(
      defineTool("get_user")
        .describe("Gets one user by their id: name, email and plan.")
        .input(v.object({ id: described("The user's id, e.g. usr_42") }))
        .output(v.object({ name: v.string() }))
        .handle(() => ({ name: "Ada" })),
    )
    .tool(
      defineTool("list_orders")
        .describe("Lists a customer's orders, newest first.")
        .input(v.object({
          customer: described("The customer's id, e.g. cus_123"),
          status: v.pipe(v.picklist(["pending", "shipped", "delivered"]), v.description("Only orders in this state")),
        }))
        .handle(() => "[]"),
    );
}
