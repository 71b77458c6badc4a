import type { Store } from "../store/store.ts";

/** How far the background reader has got with an endpoint's capture folder, as its last look found it. */
export interface CaptureProgress {
  /** Objects listed and not read yet after the last look. */
  unreadObjects: number;
  /** Objects the last look read. */
  objectsLastLook: number;
  lookedAt: string;
}

export async function recordCaptureProgress(
  store: Store,
  endpointName: string,
  progress: CaptureProgress,
): Promise<void> {
  const row = {
    unread_objects: progress.unreadObjects,
    objects_last_look: progress.objectsLastLook,
    looked_at: progress.lookedAt,
  };
  await store
    .insertInto("capture_reading")
    .values({ endpoint_name: endpointName, ...row })
    .onConflict((oc) => oc.column("endpoint_name").doUpdateSet(row))
    .execute();
}

/** The reader's progress with `endpointName`, or null before its first look. */
export async function captureProgress(store: Store, endpointName: string): Promise<CaptureProgress | null> {
  const row = await store
    .selectFrom("capture_reading")
    .select(["unread_objects", "objects_last_look", "looked_at"])
    .where("endpoint_name", "=", endpointName)
    .executeTakeFirst();
  return row
    ? { unreadObjects: row.unread_objects, objectsLastLook: row.objects_last_look, lookedAt: row.looked_at }
    : null;
}
