/** Next.js start-up hook: runs once per server process before it takes requests. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { stampPeerAddresses } = await import("./server/http/peer-address.ts");
  stampPeerAddresses();
  const { resumeEvaluationRuns } = await import("./server/evaluate/runs/resume-on-start.ts");
  resumeEvaluationRuns();
}
