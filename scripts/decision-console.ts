import { createAwsClients } from "../server/aws/clients.ts";
import { consoleConfig } from "../server/config.ts";
import { GATE_EXIT, runGate } from "../server/gate/gate-command.ts";

/** `decision-console <command>`: today one command, `gate` (docs/ci-gate.md). */
const [command, ...rest] = process.argv.slice(2);
if (command !== "gate") {
  console.error(
    `Usage: npx decision-console gate --help\n${command ? `Unknown command "${command}".` : "No command given."}`,
  );
  process.exit(GATE_EXIT.input);
}
const code = await runGate(rest, {
  clients: () => createAwsClients(),
  artifactBucket: () => consoleConfig().CONSOLE_ARTIFACT_BUCKET ?? null,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).catch((error: unknown) => {
  // Whatever escaped is not a verdict: never exit 1, which a CI step reads as a regression.
  console.error(`decision-console gate: infrastructure failure: ${(error as Error).stack ?? error}`);
  return GATE_EXIT.infrastructure;
});
process.exit(code);
