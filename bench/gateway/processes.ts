import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";

/** The same System One body both ways, a new ticket each round. */
export function decisionBody(endpoint: string, round: number) {
  return {
    model: endpoint,
    state: `I was charged twice for my subscription. Ticket ${round}, order ${(round * 7919) % 100_000}.`,
    questions: { refund: { type: "noul", instructions: "Does the customer ask for money back?" } },
  };
}

type Reply = { ok: unknown } | { error: string };

/** One of the bench's own processes (a file beside this one), started with tsx and spoken to over IPC. */
export function startProcess(file: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return fork(path.join(import.meta.dirname, file), args, {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

/** The next message `child` sends: what its work gave, or its failure as an error. */
export function nextReply<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`a bench process exited (${code}) before it answered`));
    child.once("exit", exited);
    child.once("message", (reply: Reply) => {
      child.off("exit", exited);
      if ("error" in reply) reject(new Error(reply.error));
      else resolve(reply.ok as T);
    });
  });
}

/** Sends `message` to `child` and waits for its reply. */
export function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  const reply = nextReply<T>(child);
  child.send(message as object);
  return reply;
}

/** In a bench process: tells the parent what `work` gave (or that it failed). */
export async function reply(work: () => Promise<unknown>): Promise<void> {
  const answer = await work().then(
    (ok): Reply => ({ ok }),
    (error: unknown): Reply => ({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
  await new Promise<void>((resolve) => process.send!(answer, () => resolve()));
}

/** In a bench process: answers each of the parent's messages in turn. */
export function answerParent(answer: (message: never) => Promise<unknown>): void {
  let turn = Promise.resolve();
  process.on("message", (message) => {
    turn = turn.then(() => reply(() => answer(message as never)));
  });
}
