/**
 * Bounded admission: at most `capacity` requests hold the model (evaluating or queued for a sequence); one more
 * is answered 503 "model is busy". Never an unbounded queue. The server checks `isFull` before reading a body (so
 * a busy adapter answers at once) and enters only once the body has arrived, so a slow upload never holds a slot.
 */
export class Admission {
  private inFlight = 0;

  constructor(readonly capacity: number) {}

  get current(): number {
    return this.inFlight;
  }

  get isFull(): boolean {
    return this.inFlight >= this.capacity;
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
