/**
 * The AWS llama.cpp Deep Learning Container's SageMaker images, as SageMaker pulls them: from the DLC account's
 * private ECR registry in the endpoint's own Region (SageMaker does not pull from public.ecr.aws, and refuses ECR
 * images of another Region). No CDK import, so the stack, the console and local mode read the same facts.
 *
 * Registry accounts: the `llama-cpp` entry of the SageMaker Python SDK's image URI config
 * (aws/sagemaker-python-sdk, sagemaker-core/src/sagemaker/core/image_uri_config/llama-cpp.json), which agrees with
 * the DLC documentation's Region Availability table (aws/deep-learning-containers, docs/reference/
 * region_availability.md) for every Region both list. The table lists me-west-1 too (124382933778), but the SDK's
 * llama-cpp entry does not, so it is left out; the SDK lists the two GovCloud Regions, which the table does not.
 */

export const LLAMA_CPP_DLC_REPOSITORY = "llama-cpp";

/** The SageMaker flavours of the x86 images (the DLC's Images table), by the variant the console deploys. */
export const LLAMA_CPP_DLC_TAGS = { cpu: "server-sagemaker-cpu-v1", cuda: "server-sagemaker-cuda-v1" } as const;

export const LLAMA_CPP_DLC_ACCOUNTS: Readonly<Record<string, string>> = {
  "af-south-1": "626614931356",
  "ap-east-1": "871362719292",
  "ap-east-2": "975050140332",
  "ap-northeast-1": "763104351884",
  "ap-northeast-2": "763104351884",
  "ap-northeast-3": "364406365360",
  "ap-south-1": "763104351884",
  "ap-south-2": "772153158452",
  "ap-southeast-1": "763104351884",
  "ap-southeast-2": "763104351884",
  "ap-southeast-3": "907027046896",
  "ap-southeast-4": "457447274322",
  "ap-southeast-5": "550225433462",
  "ap-southeast-6": "633930458069",
  "ap-southeast-7": "590183813437",
  "ca-central-1": "763104351884",
  "ca-west-1": "204538143572",
  "cn-north-1": "727897471807",
  "cn-northwest-1": "727897471807",
  "eu-central-1": "763104351884",
  "eu-central-2": "380420809688",
  "eu-north-1": "763104351884",
  "eu-south-1": "692866216735",
  "eu-south-2": "503227376785",
  "eu-west-1": "763104351884",
  "eu-west-2": "763104351884",
  "eu-west-3": "763104351884",
  "il-central-1": "780543022126",
  "me-central-1": "914824155844",
  "me-south-1": "217643126080",
  "mx-central-1": "637423239942",
  "sa-east-1": "763104351884",
  "us-east-1": "763104351884",
  "us-east-2": "763104351884",
  "us-gov-east-1": "446045086412",
  "us-gov-west-1": "442386744353",
  "us-west-1": "763104351884",
  "us-west-2": "763104351884",
};

/** ECR's registry host of an account in a Region (China's Regions have their own domain). */
export function ecrRegistryHost(account: string, region: string): string {
  return `${account}.dkr.ecr.${region}.${region.startsWith("cn-") ? "amazonaws.com.cn" : "amazonaws.com"}`;
}

/** `<account>.dkr.ecr.<region>.amazonaws.com/llama-cpp`, or null where the DLC publishes no llama.cpp image. */
export function llamaCppDlcRepositoryUri(region: string): string | null {
  const account = LLAMA_CPP_DLC_ACCOUNTS[region];
  return account ? `${ecrRegistryHost(account, region)}/${LLAMA_CPP_DLC_REPOSITORY}` : null;
}
