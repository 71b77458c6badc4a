import { invalidArgument } from "../wire/s3-input.ts";

/**
 * What S3's API Reference states in prose about the inputs local S3 serves, beyond the service model's shapes
 * (checked first: ../wire/s3-input.ts), answered with S3's own wording.
 */

/** UploadPart, partNumber: "Part numbers can be any number from 1 to 10,000, inclusive." */
export const MAX_PART_NUMBER = 10_000;

/** A part number outside 1..10,000 is S3's InvalidArgument, with its wording, naming the argument. */
export function requirePartNumber(partNumber: number, argumentName: string) {
  if (partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw invalidArgument(
      `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`,
      argumentName,
      partNumber,
    );
  }
}
