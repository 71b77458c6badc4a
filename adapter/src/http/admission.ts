/**
 * Bounded admission: at most `capacity` requests hold the model (evaluating or queued for a sequence); one more
 * is answered 503 "model is busy" before its body is read. Never an unbounded queue.
 */
export class Admission {
  private inFlight = 0;

  constructor(readonly capacity: number) {}

  get current(): number {
    return this.inFlight;
  }

  tryEnter(): (() => void) | null {
    if (this.inFlight >= this.capacity) return null;
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
    };
  }
}
