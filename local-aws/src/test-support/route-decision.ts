/** A two-option routing decision the local endpoint tests invoke the tiny model with. */
export const routeDecision = {
  decision: {
    id: "route-1",
    state: "Customer: I was charged twice for my subscription this month.",
    question: "Which team should handle this ticket?",
    options: [
      { id: "billing", description: "Billing and payments" },
      { id: "tech", description: "Technical support" },
    ],
  },
};
