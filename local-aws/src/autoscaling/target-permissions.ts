import { denialMessage } from "../iam/authorize.ts";
import type { RequestAuthorizer } from "../iam/request-authorizer.ts";
import { variantTargetServiceQueries } from "../iam/requests/application-auto-scaling.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import { AwsError } from "../wire/aws-error.ts";
import type { AwsRequest } from "../wire/request.ts";

/**
 * Application Auto Scaling's permission validation for a SageMaker variant target: before it registers,
 * deregisters or puts or deletes a policy, it checks the caller may act on the variant's endpoint itself. "If the
 * IAM permissions do not allow a given action, Application Auto Scaling fails the request and returns an error to
 * the user containing information about the missing permission" (Permissions validation for API calls on target
 * resources), a ValidationException "that lists the missing permissions".
 */
export function validateTargetPermissions(
  iam: RequestAuthorizer,
  store: SageMakerStore,
  request: AwsRequest,
  endpointName: string,
): void {
  const facts = iam.facts(request.region);
  const configName = store.endpoint(endpointName)?.configName;
  const queries = variantTargetServiceQueries(facts, endpointName, configName);
  const missing = iam.missingPermissions(request.auth.principal, request.region, queries);
  if (missing.length === 0) return;
  throw new AwsError(
    "ValidationException",
    `The caller lacks permissions on the target resource that Application Auto Scaling requires: ${missing
      .map((denial) => denialMessage(denial, "json"))
      .join("; ")}`,
  );
}
