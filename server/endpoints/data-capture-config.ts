import type { DataCaptureConfig, DescribeEndpointOutput } from "@aws-sdk/client-sagemaker";
import type { DeployRequest } from "../../contract/endpoints/deploy.ts";
import type { DataCaptureDetail } from "../../contract/endpoints/endpoint.ts";
import { ARTIFACT_PREFIXES } from "../../contract/stack/console-contract.ts";
import { AppError } from "../http/app-error.ts";

const captureModes = { "input-and-output": "InputAndOutput", input: "Input", output: "Output" } as const;

/**
 * The endpoint configuration's DataCaptureConfig: the sampled share of invocations, JSON kept as text, under
 * `data-capture/` of the artifact bucket (the only prefix the execution role may write captured data to).
 */
export function dataCaptureConfig(
  request: DeployRequest,
  artifactBucket: string | null,
): DataCaptureConfig | undefined {
  const capture = request.dataCapture;
  if (!capture) return undefined;
  if (!artifactBucket) {
    throw new AppError(
      "bad_request",
      "dataCapture: captured invocations are written to the artifact bucket; set CONSOLE_ARTIFACT_BUCKET for the console.",
    );
  }
  return {
    EnableCapture: true,
    InitialSamplingPercentage: capture.samplingPercentage,
    DestinationS3Uri: `s3://${artifactBucket}/${ARTIFACT_PREFIXES.dataCapture.replace(/\/$/, "")}`,
    CaptureOptions: [{ CaptureMode: captureModes[capture.capture] }],
    CaptureContentTypeHeader: { JsonContentTypes: ["application/json"] },
  };
}

/** What the endpoint page says of capture, from DescribeEndpoint's DataCaptureConfig summary. */
export function dataCaptureDetail(endpoint: DescribeEndpointOutput): DataCaptureDetail | null {
  const summary = endpoint.DataCaptureConfig;
  if (!summary) return null;
  return {
    enabled: summary.EnableCapture ?? false,
    status: summary.CaptureStatus ?? null,
    samplingPercentage: summary.CurrentSamplingPercentage ?? null,
    destination: summary.DestinationS3Uri ?? null,
  };
}
