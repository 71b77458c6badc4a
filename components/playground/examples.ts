import type { Decision } from "@decision-console/adapter/contract";

export type Example = { key: string; label: string; body: Record<string, unknown> };

function single(decision: Decision): Record<string, unknown> {
  return { decision };
}

const ticket =
  "Customer #4471 writes: I was charged twice for my March invoice and the second charge pushed my account into overdraft. I need this fixed today.";

/** Starting points for the playground, one per common use of a decision model. */
export const examples: Example[] = [
  {
    key: "routing",
    label: "Routing: which team handles a ticket",
    body: single({
      id: "route-ticket",
      state: ticket,
      question: "Which team should handle this ticket?",
      options: [
        { id: "billing", description: "Charges, invoices, refunds" },
        { id: "technical", description: "Bugs, outages, errors in the product" },
        { id: "account", description: "Login, profile, account settings" },
        { id: "sales", description: "Plans, pricing questions, upgrades" },
      ],
    }),
  },
  {
    key: "priority",
    label: "Priority: how urgent is it",
    body: single({
      id: "ticket-priority",
      state: ticket,
      question: "How urgent is this ticket?",
      options: [
        { id: "p1", description: "Money lost or service down now; act within the hour" },
        { id: "p2", description: "Significant impact; act today" },
        { id: "p3", description: "Normal request; within three days" },
      ],
    }),
  },
  {
    key: "policy",
    label: "Policy check: may the agent send this reply",
    body: single({
      id: "reply-policy",
      state: {
        draft_reply: "Sure, I have refunded both charges and added a $500 credit for the trouble.",
        policy: "Agents may refund duplicate charges. Credits above $50 need a manager's approval.",
      },
      question: "Does the draft reply comply with the policy?",
      options: [
        { id: "compliant", description: "Everything in the reply is allowed by the policy" },
        { id: "violation", description: "The reply promises something the policy does not allow" },
      ],
    }),
  },
  {
    key: "extraction",
    label: "Extraction: which field is missing",
    body: {
      decisions: [
        {
          id: "has-invoice-number",
          state: ticket,
          question: "Does the message contain an invoice number?",
          options: [
            { id: "yes", description: "An invoice number is given" },
            { id: "no", description: "No invoice number is given" },
          ],
        },
        {
          id: "has-customer-id",
          state: ticket,
          question: "Does the message contain a customer id?",
          options: [
            { id: "yes", description: "A customer id is given" },
            { id: "no", description: "No customer id is given" },
          ],
        },
      ],
    },
  },
  {
    key: "agent",
    label: "Agent action: next tool call",
    body: single({
      id: "next-action",
      state: {
        goal: "Refund the duplicate March charge for customer 4471",
        done: ["looked up customer 4471", "found two identical charges of $89.00 on 2026-03-02"],
      },
      question: "What should the agent do next?",
      options: [
        { id: "refund_charge", description: "Call refund_charge on the second charge" },
        { id: "ask_customer", description: "Ask the customer for more details" },
        { id: "escalate", description: "Hand over to a human agent" },
        { id: "finish", description: "Reply to the customer that nothing is to be done" },
      ],
    }),
  },
  {
    key: "systemone",
    label: "systemone: several questions, one state",
    body: {
      state: ticket,
      model: "jev-latest",
      questions: {
        refund: { type: "noul", instructions: "Does the customer ask for money back?" },
        team: {
          type: "choice",
          instructions: "Which team handles it?",
          criteria: { billing: "Charges and refunds", technical: "Bugs and outages", account: null },
        },
        anger: { type: "score", instructions: "How upset is the customer?", criteria: ["calm", "annoyed", "angry"] },
      },
    },
  },
  {
    key: "openai-decisions",
    label: "OpenAI decisions: predicate, choice and score, answered in order",
    body: {
      model: "gpt-6-luna",
      input: [{ role: "user", content: ticket }],
      questions: [
        { type: "predicate", name: "refund", instructions: "The customer asks for money back." },
        {
          type: "choice",
          name: "team",
          instructions: "Which team handles it?",
          choices: [
            { value: "billing", description: "Charges and refunds" },
            { value: "technical", description: "Bugs and outages" },
            { value: "account" },
          ],
        },
        {
          type: "score",
          name: "anger",
          instructions: "How upset is the customer?",
          levels: [{ label: "calm" }, { label: "annoyed" }, { label: "angry" }],
        },
      ],
    },
  },
];
