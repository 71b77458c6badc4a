import type { SageMakerInputShapesOperation } from "../wire/generated/sagemaker.ts";
import { onlyValues, type Served } from "../wire/served-members.ts";

/**
 * The members of each SageMaker operation that the local control plane acts on; any other member of the service
 * model is refused (wire/served-members.ts). Not served: data capture on asynchronous endpoints and with a KMS key,
 * shadow variants on asynchronous endpoints or with a DeploymentConfig, explainers, VPCs and KMS keys (a transform
 * job's too), routing strategies, managed instance scaling, multi-model containers, experiments, transform AMI
 * versions; in the Model Registry, unversioned and Marketplace packages, validation and algorithm specifications,
 * drift baselines, model cards and life cycles, managed storage, cross-account listing.
 * Members refused by a prose rule with a message of their own (ServerlessConfig, a transform job's
 * DataCaptureConfig) are listed as served so that rule answers.
 */
const productionVariant: Served = {
  VariantName: "served",
  ModelName: "served",
  InitialInstanceCount: "served",
  InstanceType: "served",
  InstancePools: "served",
  VariantInstanceProvisionTimeoutInSeconds: "served",
  InitialVariantWeight: "served",
  VolumeSizeInGB: "served",
  ModelDataDownloadTimeoutInSeconds: "served",
  ContainerStartupHealthCheckTimeoutInSeconds: "served",
  InferenceAmiVersion: "served",
  ServerlessConfig: "served",
};

const container: Served = {
  ContainerHostname: "served",
  Image: "served",
  Mode: onlyValues("SingleModel"),
  ModelDataUrl: "served",
  ModelDataSource: "served",
  Environment: "served",
  ModelPackageName: "served",
};

/** A model version's container: its image (with the digest it was built as), artifact and environment. */
const modelPackageContainer: Served = {
  ContainerHostname: "served",
  Image: "served",
  ImageDigest: "served",
  ModelDataUrl: "served",
  ModelDataSource: "served",
  Environment: "served",
};

const inferenceSpecification: Served = {
  Containers: modelPackageContainer,
  SupportedTransformInstanceTypes: "served",
  SupportedRealtimeInferenceInstanceTypes: "served",
  SupportedContentTypes: "served",
  SupportedResponseMIMETypes: "served",
};

export const sageMakerServedMembers: Record<SageMakerInputShapesOperation, Served> = {
  AddTags: "served",
  CreateEndpoint: { EndpointName: "served", EndpointConfigName: "served", DeploymentConfig: "served", Tags: "served" },
  CreateEndpointConfig: {
    EndpointConfigName: "served",
    ProductionVariants: productionVariant,
    // One shadow variant beside one production variant (checkShadowVariants), run as a production variant is.
    ShadowProductionVariants: productionVariant,
    AsyncInferenceConfig: "served",
    // Capture on real-time and asynchronous endpoints (KmsKeyId aside: no KMS locally).
    DataCaptureConfig: {
      EnableCapture: "served",
      InitialSamplingPercentage: "served",
      DestinationS3Uri: "served",
      CaptureOptions: "served",
      CaptureContentTypeHeader: "served",
    },
    Tags: "served",
  },
  CreateModel: {
    ModelName: "served",
    PrimaryContainer: container,
    Containers: container,
    ExecutionRoleArn: "served",
    EnableNetworkIsolation: "served",
    Tags: "served",
  },
  CreateModelPackage: {
    ModelPackageName: "served",
    ModelPackageGroupName: "served",
    ModelPackageDescription: "served",
    InferenceSpecification: inferenceSpecification,
    Tags: "served",
    ModelApprovalStatus: "served",
    MetadataProperties: "served",
    ModelMetrics: "served",
    ClientToken: "served",
    CustomerMetadataProperties: "served",
  },
  CreateModelPackageGroup: { ModelPackageGroupName: "served", ModelPackageGroupDescription: "served", Tags: "served" },
  CreateTransformJob: {
    TransformJobName: "served",
    ModelName: "served",
    MaxConcurrentTransforms: "served",
    ModelClientConfig: "served",
    MaxPayloadInMB: "served",
    BatchStrategy: "served",
    Environment: "served",
    TransformInput: "served",
    TransformOutput: { S3OutputPath: "served", Accept: "served", AssembleWith: "served" },
    DataCaptureConfig: "served",
    TransformResources: { InstanceType: "served", InstanceCount: "served" },
    DataProcessing: "served",
    Tags: "served",
  },
  DeleteEndpoint: "served",
  DeleteEndpointConfig: "served",
  DeleteModel: "served",
  DeleteModelPackage: "served",
  DeleteTags: "served",
  DescribeEndpoint: "served",
  DescribeEndpointConfig: "served",
  DescribeModel: "served",
  DescribeModelPackage: { ModelPackageName: "served" },
  DescribeModelPackageGroup: "served",
  DescribeTransformJob: "served",
  ListEndpoints: "served",
  ListModelPackageGroups: {
    CreationTimeAfter: "served",
    CreationTimeBefore: "served",
    MaxResults: "served",
    NameContains: "served",
    NextToken: "served",
    SortBy: "served",
    SortOrder: "served",
  },
  ListModelPackages: {
    CreationTimeAfter: "served",
    CreationTimeBefore: "served",
    MaxResults: "served",
    NameContains: "served",
    ModelApprovalStatus: "served",
    ModelPackageGroupName: "served",
    ModelPackageType: "served",
    NextToken: "served",
    SortBy: "served",
    SortOrder: "served",
  },
  ListTags: "served",
  ListTransformJobs: "served",
  StopTransformJob: "served",
  UpdateEndpoint: "served",
  UpdateEndpointWeightsAndCapacities: "served",
  UpdateModelPackage: {
    ModelPackageArn: "served",
    ModelApprovalStatus: "served",
    ApprovalDescription: "served",
    CustomerMetadataProperties: "served",
    CustomerMetadataPropertiesToRemove: "served",
  },
};
