import {
  type AsyncInferenceConfig,
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
  type DataCaptureConfig,
  type SageMakerClient,
} from "@aws-sdk/client-sagemaker";

export interface TestContainer {
  Image: string;
  ModelDataUrl?: string;
  ModelDataSource?: {
    S3DataSource: { S3Uri: string; S3DataType: "S3Prefix" | "S3Object"; CompressionType: "None" | "Gzip" };
  };
  Environment?: Record<string, string>;
}

/**
 * CreateModel (with the stack's execution role, the one the console may pass), CreateEndpointConfig (one
 * ml.c6i.2xlarge instance, asynchronous where an AsyncInferenceConfig is given, capturing where a DataCaptureConfig
 * is) and CreateEndpoint, all named `name`.
 */
export async function createEndpoint(
  sageMaker: SageMakerClient,
  name: string,
  container: TestContainer,
  {
    executionRoleArn,
    asyncInference,
    dataCapture,
  }: { executionRoleArn: string; asyncInference?: AsyncInferenceConfig; dataCapture?: DataCaptureConfig },
) {
  await sageMaker.send(
    new CreateModelCommand({
      ModelName: name,
      ExecutionRoleArn: executionRoleArn,
      PrimaryContainer: container,
    }),
  );
  await sageMaker.send(
    new CreateEndpointConfigCommand({
      EndpointConfigName: name,
      ProductionVariants: [
        { VariantName: "AllTraffic", ModelName: name, InstanceType: "ml.c6i.2xlarge", InitialInstanceCount: 1 },
      ],
      AsyncInferenceConfig: asyncInference,
      DataCaptureConfig: dataCapture,
    }),
  );
  await sageMaker.send(new CreateEndpointCommand({ EndpointName: name, EndpointConfigName: name }));
}
