import { describe, expect, it } from "vitest";
import { AppError } from "../http/app-error.ts";
import { awsCall, toAwsAppError } from "./errors.ts";

function sdkError(name: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: 400, requestId: "req-1" }, ...extra });
}

describe("AWS error mapping", () => {
  it("maps a plain ValidationException to 400 with the AWS message and request id", () => {
    const error = toAwsAppError(sdkError("ValidationException", "1 validation error detected"), 'endpoint "demo"');
    expect(error.status).toBe(400);
    expect(error.message).toBe('endpoint "demo": 1 validation error detected');
    expect(error.details).toMatchObject({ awsRequestId: "req-1", awsError: "ValidationException" });
  });

  it('maps SageMaker\'s "Could not find" ValidationException to 404', () => {
    expect(toAwsAppError(sdkError("ValidationException", 'Could not find endpoint "x".')).status).toBe(404);
  });

  it.each([
    ["ResourceNotFound", 404],
    ["ObjectNotFoundException", 404],
    ["RepositoryNotFoundException", 404],
    ["ResourceInUse", 409],
    ["ThrottlingException", 429],
    ["AccessDeniedException", 403],
    ["ServiceUnavailable", 503],
  ])("maps %s to %i", (name, status) => {
    expect(toAwsAppError(sdkError(name, "message")).status).toBe(status);
  });

  it("explains missing credentials with a 503 that names the fix", () => {
    const error = toAwsAppError(sdkError("CredentialsProviderError", "Could not load credentials from any providers"));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/No AWS credentials were found/);
  });

  it("reports an unreachable endpoint (local control plane down) as 503", () => {
    const error = toAwsAppError(
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:4599"), { code: "ECONNREFUSED" }),
    );
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/could not be reached/);
  });

  it("never passes an access key id through to the message", () => {
    const error = toAwsAppError(sdkError("AccessDeniedException", "User AKIAABCDEFGHIJKLMNOP is not authorized"));
    expect(error.message).not.toContain("AKIAABCDEFGHIJKLMNOP");
  });

  it.each(["AccessDeniedException", "AccessDenied"])(
    "maps %s to a 403 that says which names the console's policy allows (security issue 25, item 8)",
    (name) => {
      const saved = process.env.CONSOLE_RESOURCE_PREFIX;
      process.env.CONSOLE_RESOURCE_PREFIX = "dc-";
      try {
        const error = toAwsAppError(sdkError(name, "not authorized to perform: sagemaker:DescribeEndpoint"), "x");
        expect(error.status).toBe(403);
        expect(error.message).toBe(
          `x: AWS refused the request with the console's credentials (${name}): not authorized to perform: sagemaker:DescribeEndpoint; this console manages names starting with dc- (CONSOLE_RESOURCE_PREFIX), and its IAM policy allows no others.`,
        );
        expect(toAwsAppError(sdkError("ExpiredTokenException", "expired")).message).not.toContain("dc-");
      } finally {
        if (saved === undefined) delete process.env.CONSOLE_RESOURCE_PREFIX;
        else process.env.CONSOLE_RESOURCE_PREFIX = saved;
      }
    },
  );

  it("leaves AppErrors as they are in awsCall", async () => {
    const original = new AppError("conflict", "busy");
    await expect(
      awsCall("x", async () => {
        throw original;
      }),
    ).rejects.toBe(original);
  });
});
