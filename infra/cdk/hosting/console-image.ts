import { Aws, Fn } from "aws-cdk-lib";

/**
 * An ECR image pinned by digest, `<account>.dkr.ecr.<region>.amazonaws.com/<repository>@sha256:<64 hex>`: the form
 * the console image build exports as IMAGE_URI. A tag would let a push change what the service runs.
 */
export const CONSOLE_IMAGE_URI_PATTERN =
  "^[0-9]{12}\\.dkr\\.ecr\\.[a-z0-9-]+\\.amazonaws\\.com/(?:[a-z0-9]+(?:[._-][a-z0-9]+)*/)*[a-z0-9]+(?:[._-][a-z0-9]+)*@sha256:[a-f0-9]{64}$";

/** The repository ARN of such a URI, taken apart in CloudFormation (the URI is a deploy-time parameter). */
export function imageRepositoryArn(imageUri: string): string {
  const [host = "", repository = ""] = Fn.split(".amazonaws.com/", Fn.select(0, Fn.split("@", imageUri)), 2);
  const account = Fn.select(0, Fn.split(".", host));
  const region = Fn.select(3, Fn.split(".", host));
  return Fn.join("", ["arn:", Aws.PARTITION, ":ecr:", region, ":", account, ":repository/", repository]);
}
