/**
 * What the stack and the console's code must agree on, in one module with no CDK import so that `server/` (both
 * modes) and local mode can read it too: project names, buildspec paths, bucket prefixes, the scalable-target tag.
 */

export const MODEL_PACKAGE_PROJECT = "decision-console-model-package";
export const IMAGE_BUILD_PROJECT = "decision-console-image-build";
/** The ECR repository of the adapter images, unless the stack is given another name. */
export const ADAPTER_REPOSITORY = "decision-adapter";

/**
 * The console image (infra/docker/Dockerfile.console): its ECR repository and the CodeBuild project that builds it.
 * An operator starts that build (infra/README.md, "The console image"); the console itself never does.
 */
export const CONSOLE_IMAGE_REPOSITORY = "decision-console";
export const CONSOLE_IMAGE_BUILD_PROJECT = "decision-console-console-image-build";
export const CONSOLE_IMAGE_BUILDSPEC = "infra/buildspecs/console-image.yml";

/** The buildspec of each kind of build, read from the build's source archive (`BuildSpec.fromSourceFilename`). */
export const BUILDSPEC_PATHS = {
  model: "infra/buildspecs/model-package.yml",
  image: "infra/buildspecs/image-build.yml",
} as const;

/** Key prefixes inside the artifact bucket; each role gets only the prefixes it needs. */
export const ARTIFACT_PREFIXES = {
  /** Packaged models (`model.tar.gz` or uncompressed model data), read by SageMaker. */
  models: "models/",
  /** Source archives the console uploads for CodeBuild (`build-sources/<sha256>.zip`). */
  buildSources: "build-sources/",
  /** Asynchronous Inference, per endpoint: `async/<endpoint>/in/`, `.../out/` and `.../failed/` (asyncInferenceFolder). */
  async: "async/",
  /** Batch transform inputs the console writes and the outputs SageMaker writes beside them. */
  batch: "batch/",
  /** The evaluation reports model versions point at (`evaluation-reports/<group>/<run>.json`). */
  evaluationReports: "evaluation-reports/",
  /** Real-time data capture: SageMaker writes `data-capture/<endpoint>/<variant>/yyyy/mm/dd/hh/*.jsonl`. */
  dataCapture: "data-capture/",
  /**
   * Labels learnt later, as SageMaker Model Monitor's ground-truth files (`ground-truth/<endpoint>/.../yyyy/mm/dd/hh/
   * *.jsonl`), which teams write and the console reads.
   */
  groundTruth: "ground-truth/",
} as const;

/**
 * An asynchronous endpoint's folders in the artifact bucket: the console writes requests to `in/`, SageMaker
 * (the execution role) writes answers to `out/` (the endpoint config's S3OutputPath) and failures to `failed/`
 * (S3FailurePath).
 */
export const ASYNC_INFERENCE_FOLDERS = { requests: "in", responses: "out", failures: "failed" } as const;

export type AsyncInferenceFolder = keyof typeof ASYNC_INFERENCE_FOLDERS;

export function asyncInferenceFolder(endpoint: string, folder: AsyncInferenceFolder): string {
  return `${ARTIFACT_PREFIXES.async}${endpoint}/${ASYNC_INFERENCE_FOLDERS[folder]}/`;
}

/**
 * Transform jobs' data under `batch/`: the console writes inputs and SageMaker (the execution role) only reads them;
 * SageMaker writes outputs and the console reads them. A job reads below `inputs` and writes below `outputs`.
 */
export const BATCH_DATA_FOLDERS = {
  inputs: `${ARTIFACT_PREFIXES.batch}inputs/`,
  outputs: `${ARTIFACT_PREFIXES.batch}outputs/`,
} as const;

/** SageMaker writes every transform job's logs to this one group, in streams named `<job>/<instance id>`. */
export const TRANSFORM_JOB_LOG_GROUP = "/aws/sagemaker/TransformJobs";

/** What the console scales: SageMaker endpoint variants' instance counts. */
export const SAGEMAKER_VARIANT_SCALING = {
  serviceNamespace: "sagemaker",
  scalableDimension: "sagemaker:variant:DesiredInstanceCount",
} as const;

/**
 * The console tags every scalable target it registers with this, and its policy lets it change only targets that
 * carry it (Application Auto Scaling has no resource-id condition key; scalable-target ARNs are opaque ids).
 */
export const CONSOLE_SCALABLE_TARGET_TAG = { key: "decision-console:managed-by", value: "decision-console" } as const;

/**
 * What the console records about a model it creates, as tags given to CreateModel (never in the container's
 * Environment, which SageMaker passes whole to the container); its policy lets it add only these keys, on create.
 */
export const CONSOLE_MODEL_TAG_KEYS = {
  /** A chat model's sha256 pin, which the llama.cpp DLC cannot check: recorded, never enforced. */
  modelSha256: "decision-console:model-sha256",
  /** A batch job's model: the model build whose output it runs. */
  sourceBuildId: "decision-console:source-build",
  /** A model an update created: the endpoint configuration the endpoint served before (for a roll back). */
  previousConfig: "decision-console:previous-config",
} as const;

/**
 * The console's resource prefix (CONSOLE_RESOURCE_PREFIX, the stack's SageMakerNamePrefix) in lower case: SageMaker
 * ARNs carry names in lower case and IAM matches ARNs case-sensitively, so the stack accepts only a lower-case
 * prefix; `DC-` is read as `dc-`, the prefix a stack could have been deployed with. Empty: none.
 */
export function normalisedResourcePrefix(value: string | undefined): string | null {
  const prefix = value?.trim().toLowerCase();
  return prefix ? prefix : null;
}

/**
 * The CloudWatch namespace the console publishes its decision-drift metrics in (PutMetricData; the console policy
 * allows that namespace only, by `cloudwatch:namespace`), and the metric names, each with the dimensions
 * EndpointName and DecisionKind.
 */
export const DRIFT_METRICS = {
  namespace: "DecisionConsole/Monitoring",
  optionMix: "OptionMixDrift",
  confidence: "ConfidenceDrift",
} as const;

/**
 * Realised quality, published in the same namespace with the same dimensions: accuracy over the labelled production
 * decisions of the last 7 days, at the endpoint's threshold too, the threshold's coverage and the labelled share;
 * and the shortfall of accuracy at the threshold below the evaluation's lower bound, published only once enough
 * decisions at the threshold are labelled (MIN_LABELS_FOR_ALARM), which the realised-accuracy alarm watches.
 */
export const REALISED_METRICS = {
  namespace: DRIFT_METRICS.namespace,
  accuracy: "RealisedAccuracy",
  accuracyAtThreshold: "RealisedAccuracyAtThreshold",
  coverage: "RealisedCoverage",
  labelledShare: "LabelledShare",
  shortfall: "RealisedAccuracyShortfall",
} as const;
