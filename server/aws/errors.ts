import type { ErrorCode } from "../../contract/http/error-body.ts";
import { managedScope } from "../auth/managed-names.ts";
import { consoleConfig } from "../config.ts";
import { AppError } from "../http/app-error.ts";

interface SdkErrorLike {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number; requestId?: string };
}

const notFoundNames = new Set([
  "ResourceNotFound",
  "ResourceNotFoundException",
  "ObjectNotFoundException",
  "RepositoryNotFoundException",
  "ImageNotFoundException",
  "NoSuchKey",
  "NoSuchBucket",
  "NotFound",
]);
const conflictNames = new Set([
  "ResourceInUse",
  "ResourceInUseException",
  "ConflictException",
  "ConcurrentUpdateException",
]);
const throttleNames = new Set([
  "ThrottlingException",
  "Throttling",
  "TooManyRequestsException",
  "RequestLimitExceeded",
  "SlowDown",
]);
const deniedNames = new Set([
  "AccessDeniedException",
  "AccessDenied",
  "UnrecognizedClientException",
  "InvalidClientTokenId",
  "InvalidSignatureException",
  "SignatureDoesNotMatch",
  "ExpiredTokenException",
  "ExpiredToken",
]);
const unavailableNames = new Set([
  "ServiceUnavailable",
  "ServiceUnavailableException",
  "InternalFailure",
  "ModelNotReadyException",
]);
const networkCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "EPIPE"]);

/** An access key id must never reach a browser, even inside an AWS message. */
function redact(message: string): string {
  return message.replace(/\b(AKIA|ASIA)[A-Z0-9]{12,}\b/g, "[access key]");
}

function sdkError(code: ErrorCode, message: string, error: SdkErrorLike): AppError {
  const details: Record<string, unknown> = { awsError: error.name };
  if (error.$metadata?.requestId) details.awsRequestId = error.$metadata.requestId;
  return new AppError(code, redact(message), details);
}

function isNotFoundMessage(message: string): boolean {
  return /could not find|not found|does not exist/i.test(message);
}

/**
 * Maps an AWS SDK error (by its `name`) to the console's AppError, with a message an operator can act on.
 * `what` names the thing being worked on, e.g. `endpoint "demo"`.
 */
export function toAwsAppError(error: unknown, what?: string): AppError {
  if (error instanceof AppError) return error;
  const e = (error ?? {}) as SdkErrorLike;
  const name = e.name ?? "";
  const message = e.message || name || "AWS request failed";
  const subject = what ? `${what}: ` : "";

  if (name === "CredentialsProviderError" || /could not load credentials/i.test(message)) {
    return new AppError(
      "unavailable",
      "No AWS credentials were found. Configure the default credential chain (environment, profile or role), " +
        "or start the console in local mode with npm start.",
    );
  }
  if (/region is missing/i.test(message)) {
    return new AppError(
      "unavailable",
      "No AWS region is configured. Set AWS_REGION, or start the console in local mode.",
    );
  }
  if (e.code && networkCodes.has(e.code)) {
    return new AppError(
      "unavailable",
      `The AWS endpoint could not be reached (${e.code}). In local mode, check that the local control plane is running.`,
    );
  }
  if (notFoundNames.has(name)) return sdkError("not_found", `${subject}${message}`, e);
  if ((name === "ValidationException" || name === "ValidationError") && isNotFoundMessage(message)) {
    return sdkError("not_found", `${subject}${message}`, e);
  }
  if (name === "ValidationException" || name === "ValidationError" || name === "InvalidParameterException") {
    return sdkError("bad_request", `${subject}${message}`, e);
  }
  if (
    name === "ResourceLimitExceeded" ||
    name === "LimitExceededException" ||
    name === "AccountLimitExceededException"
  ) {
    return sdkError("conflict", `${subject}an AWS account limit was reached: ${message}`, e);
  }
  if (conflictNames.has(name)) return sdkError("conflict", `${subject}${message}`, e);
  if (throttleNames.has(name))
    return sdkError("rate_limited", `AWS is throttling requests; try again shortly (${message})`, e);
  if (name.startsWith("AccessDenied")) {
    const denied = `${subject}AWS refused the request with the console's credentials (${name}): ${message.replace(/\.$/, "")}`;
    return sdkError("forbidden", `${denied}; ${policyScope()}`, e);
  }
  if (deniedNames.has(name)) {
    return sdkError("forbidden", `AWS refused the request with the console's credentials (${name}): ${message}`, e);
  }
  if (unavailableNames.has(name)) return sdkError("unavailable", `${subject}${message}`, e);
  if (name === "TimeoutError" || name === "RequestTimeout")
    return sdkError("upstream_timeout", `${subject}${message}`, e);
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500)
    return sdkError("upstream", `${subject}AWS answered ${status}: ${message}`, e);
  if (status !== undefined && status >= 400) return sdkError("bad_request", `${subject}${message}`, e);
  console.error(JSON.stringify({ level: "error", msg: "unmapped AWS error", name, error: redact(message) }));
  return sdkError("upstream", `${subject}the AWS call failed (${name || "unknown error"}).`, e);
}

/** What an AccessDenied most often means here: a name outside the prefix the console's IAM policy is written for. */
function policyScope(): string {
  const { prefix } = managedScope(consoleConfig());
  return prefix
    ? `this console manages names starting with ${prefix} (CONSOLE_RESOURCE_PREFIX), and its IAM policy allows no others.`
    : "the console's IAM policy does not allow it.";
}

/** Runs an AWS call and rethrows its failure as an AppError. */
export async function awsCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toAwsAppError(error, what);
  }
}
