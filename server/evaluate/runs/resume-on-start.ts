import { evaluationDeps } from "../../context.ts";
import { resumeUnfinishedRuns } from "./run-registry.ts";

/** Picks up the evaluation runs a stopped or killed console left running; called once when the server starts. */
export async function resumeEvaluationRuns(): Promise<void> {
  try {
    const ids = await resumeUnfinishedRuns(evaluationDeps());
    if (ids.length > 0) console.log(JSON.stringify({ level: "info", msg: "resuming evaluation runs", runs: ids }));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "cannot resume evaluation runs", error: String(error) }));
  }
}
