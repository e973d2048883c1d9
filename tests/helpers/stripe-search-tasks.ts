/**
 * What users ask of Stripe's API, in their own words, each with the operations (tool names, from the
 * `operationId`s of APIs.guru's `stripe.com.json` as `toolsFromOpenAPI()` names them) that do it: a
 * tool search evaluation on an API the ranking was never tuned on (bench/tool-search.ts). Written from
 * the list of operations and committed before the ranking was run on them (issue 61). A task is found
 * when one of its operations is in the search's top 5.
 */
import type { SearchTask } from "./graph-search-tasks.ts";

export const STRIPE_SEARCH_TASKS: readonly SearchTask[] = [
  { task: "create a customer for a new sign-up", expected: ["PostCustomers"] },
  { task: "look up a customer by email", expected: ["GetCustomersSearch", "GetCustomers"] },
  { task: "change a customer's billing address", expected: ["PostCustomersCustomer"] },
  { task: "delete a customer", expected: ["DeleteCustomersCustomer"] },
  { task: "charge a card $20", expected: ["PostCharges", "PostPaymentIntents"] },
  { task: "refund a payment", expected: ["PostRefunds", "PostChargesChargeRefund", "PostChargesChargeRefunds"] },
  { task: "list the latest payments", expected: ["GetPaymentIntents", "GetCharges"] },
  {
    task: "subscribe a customer to a monthly plan",
    expected: ["PostSubscriptions", "PostCustomersCustomerSubscriptions"],
  },
  {
    task: "cancel a customer's subscription",
    expected: ["DeleteSubscriptionsSubscriptionExposedId", "DeleteCustomersCustomerSubscriptionsSubscriptionExposedId"],
  },
  { task: "email an invoice to the customer", expected: ["PostInvoicesInvoiceSend"] },
  { task: "draft a new invoice", expected: ["PostInvoices"] },
  { task: "pay an open invoice", expected: ["PostInvoicesInvoicePay"] },
  { task: "void an invoice", expected: ["PostInvoicesInvoiceVoid"] },
  { task: "set up a coupon for 20% off", expected: ["PostCoupons"] },
  { task: "give customers a promo code", expected: ["PostPromotionCodes"] },
  { task: "add a product to the catalog", expected: ["PostProducts"] },
  { task: "set the price of a product", expected: ["PostPrices"] },
  { task: "what is my account balance", expected: ["GetBalance"] },
  { task: "pay out my balance to my bank account", expected: ["PostPayouts"] },
  { task: "send money to a connected account", expected: ["PostTransfers"] },
  { task: "register a webhook endpoint for payment events", expected: ["PostWebhookEndpoints"] },
  { task: "remove a webhook endpoint", expected: ["DeleteWebhookEndpointsWebhookEndpoint"] },
  {
    task: "save a card on file for a customer",
    expected: [
      "PostCustomersCustomerSources",
      "PostCustomersCustomerCards",
      "PostPaymentMethodsPaymentMethodAttach",
      "PostSetupIntents",
    ],
  },
  { task: "make a checkout page for a product", expected: ["PostCheckoutSessions", "PostPaymentLinks"] },
  { task: "share a payment link", expected: ["PostPaymentLinks"] },
  { task: "respond to a dispute with evidence", expected: ["PostDisputesDispute"] },
  { task: "list recent disputes", expected: ["GetDisputes"] },
  { task: "issue a virtual card to an employee", expected: ["PostIssuingCards"] },
  { task: "store a customer's tax ID", expected: ["PostCustomersCustomerTaxIds"] },
  { task: "run a financial report", expected: ["PostReportingReportRuns"] },
];
