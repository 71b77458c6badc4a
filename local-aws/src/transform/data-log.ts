/**
 * A record the container refused (an HTTP status other than 200, after InvocationsMaxRetries) fails the job with
 * only this FailureReason; what was refused is in the job's data log (stream `<job>/<instance>/data-log`), as
 * users' failed jobs show it, e.g. aws/amazon-sagemaker-examples#1620 and a job refused with HTTP 400 on
 * `SplitType=Line` JSON lines, both answered "ClientError: See job logs for more information".
 */
export const SEE_JOB_LOGS = "See job logs for more information";

/**
 * The data log's lines for a refused record, in SageMaker's form: each starts with the time, `[sagemaker logs]` and
 * the input object as `<bucket>/<key>` (no `s3://`), then the status as a ClientError, an empty line, `Message:` and
 * the container's message line by line:
 *
 *     2020-10-14T04:08:19.666:[sagemaker logs]: bucket/key: ClientError: 400
 *     2020-10-14T04:08:19.666:[sagemaker logs]: bucket/key:
 *     2020-10-14T04:08:19.666:[sagemaker logs]: bucket/key: Message:
 *     2020-10-14T04:08:19.666:[sagemaker logs]: bucket/key: <message>
 *
 * SageMaker's lines do not say which record it was; local mode starts the message with the record's line in the
 * object (`line N: `), as the adapter itself names a line of a mini-batch.
 */
export function refusedRecordLines(
  object: { bucket: string; key: string },
  line: number,
  status: number,
  message: string,
  at: Date,
): string[] {
  const prefix = `${at.toISOString().slice(0, 23)}:[sagemaker logs]: ${object.bucket}/${object.key}:`;
  const said = `line ${line}: ${message}`.split(/\r?\n/);
  return [`${prefix} ClientError: ${status}`, prefix, `${prefix} Message:`, ...said.map((text) => `${prefix} ${text}`)];
}
