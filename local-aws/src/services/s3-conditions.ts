import type { StoredObject } from "../object-store.ts";
import { AwsError } from "../wire/aws-error.ts";

/** GetObject's and HeadObject's conditional members, as bound from their headers. */
export interface ReadConditions {
  IfMatch?: string;
  IfNoneMatch?: string;
  IfModifiedSince?: Date;
  IfUnmodifiedSince?: Date;
}

const matches = (list: string, etag: string) =>
  list.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "").replaceAll('"', "") === etag;
  });

/** HTTP dates have whole seconds; an object modified within the second is not modified since it. */
const modifiedAfter = (object: StoredObject, date: Date) =>
  Math.floor(object.lastModified.getTime() / 1000) > Math.floor(date.getTime() / 1000);

/**
 * Whether a read of the object is answered 304 Not Modified, or refused 412 PreconditionFailed, by its conditions.
 * GetObject, If-Match: "If both of the If-Match and If-Unmodified-Since headers are present in the request as
 * follows: If-Match condition evaluates to true, and; If-Unmodified-Since condition evaluates to false; then, S3
 * returns 200 OK and the data requested." If-None-Match: "If both of the If-None-Match and If-Modified-Since headers
 * are present in the request as follows: If-None-Match condition evaluates to false, and; If-Modified-Since condition
 * evaluates to true; then, S3 returns 304 Not Modified HTTP status code." So an entity tag decides over a date.
 */
export function notModified(object: StoredObject, conditions: ReadConditions): boolean {
  const failed = (condition: string) =>
    new AwsError("PreconditionFailed", "At least one of the pre-conditions you specified did not hold", 412, {
      Condition: condition,
    });
  if (conditions.IfMatch !== undefined) {
    if (!matches(conditions.IfMatch, object.etag)) throw failed("If-Match");
  } else if (conditions.IfUnmodifiedSince && modifiedAfter(object, conditions.IfUnmodifiedSince)) {
    throw failed("If-Unmodified-Since");
  }
  if (conditions.IfNoneMatch !== undefined) return matches(conditions.IfNoneMatch, object.etag);
  return conditions.IfModifiedSince !== undefined && !modifiedAfter(object, conditions.IfModifiedSince);
}
