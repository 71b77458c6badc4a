/**
 * Request bodies being received at once, in total and per client address. Each body is at most
 * SEMIF_MAX_BODY_BYTES, so the total bounds the memory uploads can take; the per-address share keeps one client
 * that trickles its bodies from taking every slot while others wait.
 */
export class BodyReaders {
  private total = 0;
  private readonly byPeer = new Map<string, number>();

  constructor(
    readonly capacity: number,
    readonly perPeer: number,
  ) {}

  /** A release function, or null when the total or this peer's share is taken. */
  tryEnter(peer: string): (() => void) | null {
    const current = this.byPeer.get(peer) ?? 0;
    if (this.total >= this.capacity || current >= this.perPeer) return null;
    this.total++;
    this.byPeer.set(peer, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byPeer.get(peer) ?? 1) - 1;
      if (left === 0) this.byPeer.delete(peer);
      else this.byPeer.set(peer, left);
    };
  }
}
