import {
  CreateEndpointCommand,
  CreateEndpointConfigCommand,
  CreateModelCommand,
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

/** CreateModel, CreateEndpointConfig (one ml.c6i.2xlarge instance) and CreateEndpoint, all named `name`. */
export async function createEndpoint(sageMaker: SageMakerClient, name: string, container: TestContainer) {
  await sageMaker.send(
    new CreateModelCommand({
      ModelName: name,
      ExecutionRoleArn: "arn:aws:iam::000000000000:role/local",
      PrimaryContainer: container,
    }),
  );
  await sageMaker.send(
    new CreateEndpointConfigCommand({
      EndpointConfigName: name,
      ProductionVariants: [
        { VariantName: "AllTraffic", ModelName: name, InstanceType: "ml.c6i.2xlarge", InitialInstanceCount: 1 },
      ],
    }),
  );
  await sageMaker.send(new CreateEndpointCommand({ EndpointName: name, EndpointConfigName: name }));
}
