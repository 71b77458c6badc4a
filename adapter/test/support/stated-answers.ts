/**
 * Decisions whose answer is stated in their state, for the trained-model tests: each asks for a fact the state
 * says outright. The stated option is at every position in turn (A, B, C), so a model that prefers a position
 * cannot rank all of them right. The set was fixed before it was measured; trained-model.model.test.ts asserts
 * what SmolLM2-135M-Instruct measured on it.
 */
export type StatedDecision = {
  id: string;
  state: string;
  question: string;
  options: Array<{ id: string; description: string }>;
  answer: string;
};

export const STATED_ANSWERS: StatedDecision[] = [
  {
    id: "stated-city",
    state: "The meeting will be held in Paris.",
    question: "In which city will the meeting be held?",
    options: [
      { id: "paris", description: "Paris" },
      { id: "rome", description: "Rome" },
      { id: "berlin", description: "Berlin" },
    ],
    answer: "paris",
  },
  {
    id: "stated-request",
    state: "The customer wrote: please cancel my subscription.",
    question: "What does the customer ask for?",
    options: [
      { id: "refund", description: "A refund" },
      { id: "cancel", description: "Cancelling the subscription" },
      { id: "upgrade", description: "A bigger plan" },
    ],
    answer: "cancel",
  },
  {
    id: "stated-colour",
    state: "The car is green.",
    question: "What colour is the car?",
    options: [
      { id: "red", description: "Red" },
      { id: "blue", description: "Blue" },
      { id: "green", description: "Green" },
    ],
    answer: "green",
  },
  {
    id: "stated-day",
    state: "The package was delivered on Monday.",
    question: "On which day was the package delivered?",
    options: [
      { id: "monday", description: "Monday" },
      { id: "wednesday", description: "Wednesday" },
      { id: "friday", description: "Friday" },
    ],
    answer: "monday",
  },
  {
    id: "stated-topic",
    state: "The ticket says: I cannot log in to my account.",
    question: "What is the ticket about?",
    options: [
      { id: "billing", description: "A billing question" },
      { id: "login", description: "A login problem" },
      { id: "shipping", description: "A shipping delay" },
    ],
    answer: "login",
  },
  {
    id: "stated-animal",
    state: "Anna owns a dog.",
    question: "Which animal does Anna own?",
    options: [
      { id: "cat", description: "A cat" },
      { id: "horse", description: "A horse" },
      { id: "dog", description: "A dog" },
    ],
    answer: "dog",
  },
];

/** What the decision API answers for one stated decision (the members the trained-model tests read). */
export type StatedResult = {
  option_ids: string[];
  probabilities: number[];
  option_logits: number[];
  permutations?: number;
};

/** Every cyclic order of a decision's options: the stated answer comes at every position once. */
export function rotations(decision: StatedDecision): StatedDecision[] {
  return decision.options.map((_, offset) => ({
    ...decision,
    id: `${decision.id}-${offset}`,
    options: [...decision.options.slice(offset), ...decision.options.slice(0, offset)],
  }));
}

/** The decision as the API takes it: everything but the stated answer. */
export function statedRequest(decision: StatedDecision) {
  const { answer: _answer, ...fields } = decision;
  return fields;
}

/** The position of the highest probability (the first, on a tie). */
export function highestIndex(probabilities: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < probabilities.length; i++) if (probabilities[i]! > probabilities[best]!) best = i;
  return best;
}
