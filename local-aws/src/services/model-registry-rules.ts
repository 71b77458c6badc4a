import type { ModelPackageDoc } from "../model-registry/model-package-store.ts";
import { validation } from "../wire/aws-error.ts";

/**
 * What the SageMaker API reference states in prose about the Model Registry (CreateModelPackage,
 * DescribeModelPackage, UpdateModelPackage, CreateModel's ContainerDefinition). AWS documents no wording for these
 * refusals; the messages say what the reference says.
 */

/**
 * CreateModelPackage, ModelPackageName: "This parameter is required for unversioned models. It is not applicable to
 * versioned models." ModelPackageGroupName: "This parameter is required for versioned models, and does not apply to
 * unversioned models." Local mode serves versioned models only (unversioned packages are for AWS Marketplace).
 */
export function checkVersionedPackage(input: { ModelPackageName?: string; ModelPackageGroupName?: string }) {
  if (input.ModelPackageName !== undefined && input.ModelPackageGroupName !== undefined) {
    throw validation(
      "ModelPackageName is not applicable to versioned models: give ModelPackageGroupName alone for a model version, or ModelPackageName alone for an unversioned model.",
    );
  }
  if (input.ModelPackageGroupName === undefined) {
    throw validation(
      "Unversioned model packages (ModelPackageName without ModelPackageGroupName) are not served by the local control plane; give ModelPackageGroupName to register a model version.",
    );
  }
}

/**
 * "To create a model package by specifying a Docker container that contains your inference code and the Amazon S3
 * location of your model artifacts, provide values for InferenceSpecification. To create a model from an algorithm
 * resource ..., provide a value for SourceAlgorithmSpecification." Local mode serves the first.
 */
export function checkInferenceSpecification(input: { InferenceSpecification?: unknown }) {
  if (input.InferenceSpecification === undefined) {
    throw validation(
      "A model version needs an InferenceSpecification (its container image and model artifact); SourceAlgorithmSpecification is not served by the local control plane.",
    );
  }
}

/**
 * CreateModelPackage, ModelApprovalStatus: "For versioned models, the value of this parameter must be set to
 * Approved to deploy the model." CreateModel from a version is its deployment.
 */
export function checkDeployable(version: ModelPackageDoc) {
  if (version.ModelApprovalStatus !== "Approved") {
    throw validation(
      `Model package ${version.ModelPackageArn} has ModelApprovalStatus ${version.ModelApprovalStatus}; a model version must be Approved to deploy it.`,
    );
  }
}

/** A version's one container: local mode runs single-container models only (CreateModel's Containers aside). */
export function checkSingleContainer(version: ModelPackageDoc) {
  const containers = version.InferenceSpecification?.Containers ?? [];
  if (containers.length !== 1) {
    throw validation(
      `Model package ${version.ModelPackageArn} has ${containers.length} containers; the local control plane deploys model versions of exactly one container.`,
    );
  }
  return containers[0]!;
}
