/**
 * What tests need beyond the SDK: settling endpoints and builds (on `ControlPlane`), moving the metric clock,
 * starting endpoints and models quickly, watching processes, and local mode's own readings of AWS documentation,
 * which tests/integration holds against the console's.
 */
export { percentile } from "./alarms/sagemaker-metrics.ts";
export type { AsyncRequest } from "./async/async-request-store.ts";
export { contextSources, dockerBuildFiles } from "./builds/buildspec.ts";
export { openLocalDatabase } from "./database.ts";
export { AdapterProcess } from "./endpoints/adapter-process.ts";
export { deploymentSchedule } from "./endpoints/deployment-schedule.ts";
export { imageDigest, imageSourceHash } from "./image-registry.ts";
export { LLAMA_CPP_DLC, llamaCppDlcAccount } from "./llama-cpp-dlc-images.ts";
export { MetricDatapoints } from "./metric-datapoints.ts";
export { MetricsStore } from "./metrics-store.ts";
export { arnOf, SageMakerStore } from "./sagemaker-store.ts";
export { cloudWatchLogsServedMembers } from "./services/cloudwatch-logs-served.ts";
export { codeBuildServedMembers } from "./services/codebuild-served.ts";
export { checkUpdateEndpoint } from "./services/deployment-config-rules.ts";
export { ecrServedMembers } from "./services/ecr-served.ts";
export { instanceTypeHasInstanceStorage } from "./services/instance-storage.ts";
export { localAdapterImageUri, localAdapterRepository } from "./test-support/adapter-image.ts";
export {
  createAdapterModel,
  createTinyAdapterModel,
  publishModelArchive,
  publishTinyModelArchive,
} from "./test-support/batch-model.ts";
export { createEndpoint } from "./test-support/create-endpoint.ts";
export { MetricClock } from "./test-support/metric-clock.ts";
export { allExit, childrenOf, isRunning, parentOf, processesRunning } from "./test-support/processes.ts";
export { routeDecision } from "./test-support/route-decision.ts";
export { testExecutionRoleArn, testStackFixture, writeTinyModel } from "./test-support/stack-fixture.ts";
export { throttledPlanes } from "./test-support/throttled-plane.ts";
export { TRANSFORM_JOB_LOG_GROUP } from "./transform/transform-runner.ts";
/** Each served operation's input shape from the service models: what the security probe generates inputs from. */
export { applicationAutoScalingInputShapes } from "./wire/generated/application-auto-scaling.ts";
export { cloudWatchInputShapes } from "./wire/generated/cloudwatch.ts";
export { cloudWatchLogsInputShapes } from "./wire/generated/cloudwatch-logs.ts";
export { codeBuildInputShapes } from "./wire/generated/codebuild.ts";
export { ecrInputShapes } from "./wire/generated/ecr.ts";
export { s3InputShapes } from "./wire/generated/s3.ts";
export { sageMakerInputShapes } from "./wire/generated/sagemaker.ts";
export { sageMakerRuntimeInputShapes } from "./wire/generated/sagemaker-runtime.ts";
export type { Shape, StructureShape } from "./wire/input-shapes.ts";
export type { Served } from "./wire/served-members.ts";
