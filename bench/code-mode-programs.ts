/**
 * The programs bench/code-mode-tasks.ts sends to `execute_code`: each task of the direct run, as a model writes it
 * once it has read the tools' declarations (`discover_tools`). TypeScript, as models write it; code mode strips the
 * types before the sandbox runs it.
 *
 * @module
 */
import { CUSTOMER_EMAIL, PAGE, REPO } from "./code-mode-apis.ts";

/** The execute tool's name (code mode's default). */
export const EXECUTE = "execute_code";

/** GitHub: the open pull requests without an approving review, octocat asked to review each. */
export const githubProgram = `
const repo = ${JSON.stringify(REPO)};
const { result: pulls } = await tools.pulls_list({ ...repo, state: "open", per_page: ${PAGE} });
const reviews = await Promise.all(
  pulls.map((pull: { number: number }) => tools["pulls_list-reviews"]({ ...repo, pull_number: pull.number })),
);
const waiting = pulls.filter((_: unknown, i: number) =>
  !reviews[i].result.some((review: { state: string }) => review.state === "APPROVED")
);
for (const pull of waiting) {
  await tools["pulls_request-reviewers"]({ ...repo, pull_number: pull.number, reviewers: ["octocat"] });
}
return waiting.map((pull: { number: number; title: string }) => ({ number: pull.number, title: pull.title }));
`;

/** Stripe: the customer's charges made twice (same amount and description, minutes apart), the second refunded. */
export const stripeProgram = `
interface Charge { id: string; amount: number; description: string; created: number }
const customers = await tools.GetCustomers({ email: ${JSON.stringify(CUSTOMER_EMAIL)} });
const charges = await tools.GetCharges({ customer: customers.data[0].id, limit: ${PAGE} });
const twice = charges.data.filter((charge: Charge, i: number) =>
  charges.data.some((other: Charge, j: number) =>
    j < i && other.amount === charge.amount && other.description === charge.description &&
    Math.abs(charge.created - other.created) < 600
  )
);
const refunds = [];
for (const charge of twice) refunds.push(await tools.PostRefunds({ charge: charge.id }));
return refunds.map((refund) => ({ charge: refund.charge, amount: refund.amount }));
`;
