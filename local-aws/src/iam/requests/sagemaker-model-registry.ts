import {
  type OperationAuthorization,
  type RequestFacts,
  requestTagContext,
  resourceTagContext,
  str,
  tagListToMap,
  tagOnCreate,
} from "./facts.ts";

/** A group by name or ARN, as `arn:aws:sagemaker:<region>:<account>:model-package-group/<name>` (its case kept). */
function groupArn(facts: RequestFacts, nameOrArn: string): string {
  if (nameOrArn.startsWith("arn:")) return nameOrArn;
  return `arn:aws:sagemaker:${facts.region}:${facts.accountId}:model-package-group/${nameOrArn}`;
}

/** The group name of a group given by name or ARN. */
const groupName = (nameOrArn: string) => (nameOrArn.startsWith("arn:") ? (nameOrArn.split("/")[1] ?? "") : nameOrArn);

function onVersion(action: string, field: string): OperationAuthorization {
  return (input, facts) => {
    const resource = str(input[field]);
    return [{ action, resource, context: resourceTagContext(facts.sageMakerTags(resource), "sagemaker") }];
  };
}

/** The request's `sagemaker:CustomerMetadataProperties/<key>` and `sagemaker:ModelApprovalStatus`. */
function versionContext(input: Record<string, unknown>) {
  const metadata = (input.CustomerMetadataProperties ?? {}) as Record<string, string>;
  return {
    ...Object.fromEntries(
      Object.entries(metadata).map(([key, value]) => [`sagemaker:CustomerMetadataProperties/${key}`, value]),
    ),
    ...(typeof input.ModelApprovalStatus === "string"
      ? { "sagemaker:ModelApprovalStatus": input.ModelApprovalStatus }
      : {}),
  };
}

/**
 * The Model Registry's operations, with the Service Authorization Reference's resources (model-package-group,
 * model-package) and condition keys. A new version's ARN is not known before it is numbered, so CreateModelPackage
 * is authorised on every version of its group (`model-package/<group>/*`).
 */
export const modelRegistryAuthorization: Record<string, OperationAuthorization> = {
  CreateModelPackageGroup(input, facts) {
    const resource = groupArn(facts, str(input.ModelPackageGroupName));
    return [
      {
        action: "sagemaker:CreateModelPackageGroup",
        resource,
        context: requestTagContext(tagListToMap(input.Tags)),
      },
      ...tagOnCreate("sagemaker:CreateModelPackageGroup", resource, input),
    ];
  },
  DescribeModelPackageGroup(input, facts) {
    const resource = groupArn(facts, str(input.ModelPackageGroupName));
    return [
      {
        action: "sagemaker:DescribeModelPackageGroup",
        resource,
        context: resourceTagContext(facts.sageMakerTags(resource), "sagemaker"),
      },
    ];
  },
  ListModelPackageGroups: () => [{ action: "sagemaker:ListModelPackageGroups", resource: "*", context: {} }],
  CreateModelPackage(input, facts) {
    const group = groupName(str(input.ModelPackageGroupName));
    const resource = `arn:aws:sagemaker:${facts.region}:${facts.accountId}:model-package/${group}/*`;
    return [
      {
        action: "sagemaker:CreateModelPackage",
        resource,
        context: { ...requestTagContext(tagListToMap(input.Tags)), ...versionContext(input) },
      },
      ...tagOnCreate("sagemaker:CreateModelPackage", resource, input),
    ];
  },
  DescribeModelPackage: onVersion("sagemaker:DescribeModelPackage", "ModelPackageName"),
  ListModelPackages: () => [{ action: "sagemaker:ListModelPackages", resource: "*", context: {} }],
  UpdateModelPackage(input, facts) {
    const resource = str(input.ModelPackageArn);
    const removed = Array.isArray(input.CustomerMetadataPropertiesToRemove)
      ? { "sagemaker:CustomerMetadataPropertiesToRemove": input.CustomerMetadataPropertiesToRemove as string[] }
      : {};
    return [
      {
        action: "sagemaker:UpdateModelPackage",
        resource,
        context: {
          ...resourceTagContext(facts.sageMakerTags(resource), "sagemaker"),
          ...versionContext(input),
          ...removed,
        },
      },
    ];
  },
  DeleteModelPackage: onVersion("sagemaker:DeleteModelPackage", "ModelPackageName"),
};
