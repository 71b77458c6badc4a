/**
 * The local AWS control plane: SageMaker, SageMaker Runtime, S3, ECR, CodeBuild, CloudWatch, CloudWatch Logs and
 * Application Auto Scaling on one loopback port, with SigV4 and IAM evaluated against the stack fixture. Clients
 * reach it through the AWS SDK with `localClientConfig`; this module is everything else they may use.
 */
export { type BuildSource, buildSourcesDir } from "./builds/build-runner.ts";
export { type ControlPlane, startControlPlane } from "./control-plane.ts";
export { exitWithParent, exitWithParentArgs } from "./exit-with-parent.mjs";
export { freePort } from "./free-port.ts";
export { type HubStandIn, publishHubFile, startHubStandIn } from "./hf-standin.ts";
export { executionRoleArnOf } from "./iam/stack-policies.ts";
export { type AccessKey, type LocalProfile, localCredentialsDir, readLocalAccessKey } from "./local-credentials.ts";
export type { LocalStackOptions } from "./stack.ts";
export {
  consoleEnvironment,
  type LocalStack,
  localAwsEnvironment,
  localClientConfig,
  startLocalStack,
} from "./stack.ts";
export type {
  ContainerContract,
  ImageRepositoryFixture,
  ImageVariant,
  InstanceProgram,
  LocalStackFixture,
  SynthesisedPolicies,
} from "./stack-fixture.ts";
export { DEFAULT_REGION, LOCAL_ACCOUNT_ID } from "./wire/request.ts";
