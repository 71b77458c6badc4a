import type { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { deployProblem } from "../../contract/models/approval.ts";
import type { ModelVersion } from "../../contract/models/model-registry.ts";
import { versionOfArn } from "../../contract/models/version-of-arn.ts";
import { AppError } from "../http/app-error.ts";
import { sameModelData } from "./evaluation-evidence.ts";
import { describeVersionByArn, requireManagedGroup } from "./model-versions.ts";

/**
 * The version a deployment or update names, once it may serve: its group is this console's and it is Approved. The
 * request's image, model data and sha256 (which size the instance and let the adapter check the GGUF) must be the
 * version's own: a form filled from one version and sent with another's artifact is refused.
 */
export async function deployableVersion(
  sageMaker: SageMakerClient,
  arn: string,
  prefix: string | null,
  request: { imageUri?: string; modelDataUrl?: string; modelSha256?: string },
  field = "modelVersionArn",
): Promise<ModelVersion> {
  // The schema has checked the ARN's form, so it names a group.
  const group = versionOfArn(arn)?.group ?? "";
  try {
    requireManagedGroup(group, prefix);
  } catch (error) {
    throw new AppError("forbidden", `${field}: ${(error as Error).message}`);
  }
  const version = await describeVersionByArn(sageMaker, arn);
  const problem = deployProblem(version.status);
  if (problem) throw new AppError("conflict", `${field}: ${problem}`);
  const mismatch = [
    request.imageUri !== undefined && request.imageUri !== version.imageUri ? `imageUri ${version.imageUri}` : null,
    request.modelDataUrl !== undefined && !sameModelData(request.modelDataUrl, version.modelDataUrl)
      ? `modelDataUrl ${version.modelDataUrl}`
      : null,
    request.modelSha256 !== undefined && version.modelSha256 && request.modelSha256 !== version.modelSha256
      ? `modelSha256 ${version.modelSha256}`
      : null,
  ].filter(Boolean);
  if (mismatch.length > 0) {
    throw new AppError(
      "bad_request",
      `${field}: version ${version.version} of ${version.group} serves ${mismatch.join(", ")}; the request names another.`,
    );
  }
  return version;
}
