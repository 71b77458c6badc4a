/**
 * The facts of Batch Transform the batch and evaluate forms show, without zod: the pages that render them do not
 * load the request schemas (`transform-jobs.ts` re-exports them for the server).
 */

/**
 * CPU instance types a job may use. Batch Transform offers no choice of inference AMI, so the NVIDIA driver the cuda
 * image (CUDA 13) needs is not guaranteed there: jobs run the cpu image on CPU instances only.
 */
export const batchInstanceTypes = [
  "ml.c6i.large",
  "ml.c6i.xlarge",
  "ml.c6i.2xlarge",
  "ml.c6i.4xlarge",
  "ml.c6i.8xlarge",
  "ml.c7i.2xlarge",
  "ml.m5.large",
  "ml.m5.xlarge",
] as const;

/** SageMaker's limit on TransformInput's S3Uri and TransformOutput's S3OutputPath (service model: max 1024). */
export const MAX_TRANSFORM_S3_URI_LENGTH = 1024;

/** Why a job may not run the cuda image (the GPU caveat): said in the UI and in every refusal. */
export const batchCudaReason =
  "Batch Transform jobs run the cpu image on CPU instances only (SageMaker picks no inference AMI for them, so the CUDA 13 driver is not guaranteed).";

/**
 * Why a job may not run a model whose data is uncompressed (SageMaker's ModelDataSource): said in the UI and in
 * every refusal. The API reference of ContainerDefinition.ModelDataSource: "Currently you cannot use
 * ModelDataSource in conjunction with SageMaker batch transform".
 */
export const batchModelDataReason =
  "Batch Transform cannot run a model whose data is uncompressed: SageMaker gives such a model its data as ModelDataSource, which batch transform does not accept. Package the model with compression Gzip (a model.tar.gz) for batch jobs.";

/** A build output batch jobs can run: a `model.tar.gz` (given to SageMaker as ModelDataUrl). */
export const isBatchModelData = (modelDataUrl: string) => modelDataUrl.endsWith(".tar.gz");

/**
 * CreateTransformJob's reference: "The value of MaxPayloadInMB cannot be greater than 100 MB. If you specify the
 * MaxConcurrentTransforms parameter, the value of (MaxConcurrentTransforms * MaxPayloadInMB) also cannot exceed
 * 100 MB."
 */
export const MAX_TRANSFORM_PAYLOAD_MB = 100;
