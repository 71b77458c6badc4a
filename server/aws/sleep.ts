/** Waiting is injected wherever the console retries, so tests run without real delays. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Waits `ms`; an abort ends the wait at once with the signal's reason. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
