/** How an application calls the gateway with its key: TypeSafe's `typesafe-sdk` and OpenAI's `openai` (Python). */
export function gatewaySnippets(origin: string, secret: string, model: string): { typesafe: string; openai: string } {
  return {
    typesafe: [
      "from typesafe_sdk import Choice, Noul, TypeSafeClient",
      "",
      `client = TypeSafeClient(api_key="${secret}", base_url="${origin}")`,
      "result = client.system_one(",
      '    "I was charged twice for my subscription.",',
      '    {"refund": Noul(instructions="Does the customer ask for money back?"),',
      '     "team": Choice(instructions="Which team?", criteria={"billing": None, "technical": None})},',
      `    model="${model}",`,
      ")",
      'print(result.nouls["refund"].noul, result.choices["team"].choice)',
    ].join("\n"),
    openai: [
      "import openai",
      "",
      `client = openai.OpenAI(api_key="${secret}", base_url="${origin}/v1")`,
      "decision = client.decisions.create(",
      `    model="${model}",`,
      '    input="I was charged twice for my subscription.",',
      '    questions=[{"type": "predicate", "name": "refund", "instructions": "The customer asks for money back."}],',
      ")",
      "print(decision.answers[0].probability)",
    ].join("\n"),
  };
}
