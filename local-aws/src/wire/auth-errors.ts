import { AwsError } from "./aws-error.ts";
import type { SignatureError } from "./sigv4.ts";

const SIGNATURE_MISMATCH_JSON =
  "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";

/**
 * An authentication failure in the words of the AWS JSON protocols (SageMaker, SageMaker Runtime, CodeBuild, ECR,
 * CloudWatch, CloudWatch Logs, Application Auto Scaling); statuses from the AWS common-errors reference.
 */
export function jsonAuthError(error: SignatureError): AwsError {
  switch (error.failure) {
    case "missing":
      return new AwsError("MissingAuthenticationTokenException", "Missing Authentication Token", 403);
    case "presigned":
    case "malformed":
    case "unsigned-headers":
      return new AwsError("IncompleteSignatureException", error.message, 400);
    case "unknown-key":
    case "session-token":
      return new AwsError("UnrecognizedClientException", "The security token included in the request is invalid.", 400);
    case "wrong-service":
    case "wrong-region":
    case "skewed":
      return new AwsError("InvalidSignatureException", error.message, 400);
    case "mismatch":
      return new AwsError("InvalidSignatureException", SIGNATURE_MISMATCH_JSON, 400);
  }
}

/** The same failure as S3 answers it (REST-XML error codes, 403 for authentication, 400 for a malformed request). */
export function s3AuthError(error: SignatureError, accessKeyId?: string): AwsError {
  switch (error.failure) {
    case "missing":
      return new AwsError("AccessDenied", "Access Denied", 403);
    case "presigned":
      return new AwsError("AccessDenied", error.message, 403);
    case "malformed":
    case "wrong-service":
      return new AwsError("AuthorizationHeaderMalformed", error.message, 400);
    case "wrong-region":
      return new AwsError(
        "AuthorizationHeaderMalformed",
        `The authorization header is malformed; the region '${error.details.CredentialRegion}' is wrong; expecting '${error.details.Region}'`,
        400,
        { Region: error.details.Region },
      );
    case "unsigned-headers":
      return new AwsError("AccessDenied", "There were headers present in the request which were not signed", 403, {
        HeadersNotSigned: error.details.HeadersNotSigned,
      });
    case "unknown-key":
      return new AwsError(
        "InvalidAccessKeyId",
        "The AWS Access Key Id you provided does not exist in our records.",
        403,
        {
          AWSAccessKeyId: accessKeyId ?? "",
        },
      );
    case "session-token":
      return new AwsError("InvalidToken", "The provided token is malformed or otherwise invalid.", 400);
    case "skewed":
      return new AwsError(
        "RequestTimeTooSkewed",
        "The difference between the request time and the current time is too large.",
        403,
        error.details,
      );
    case "mismatch":
      return new AwsError(
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
        403,
        { AWSAccessKeyId: accessKeyId ?? "" },
      );
  }
}
