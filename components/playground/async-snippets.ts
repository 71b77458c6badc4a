import type { SnippetLanguage } from "./snippets.ts";

/**
 * Snippets for an asynchronous endpoint, with the same body the playground sends: write the request to S3, call
 * InvokeEndpointAsync with it as InputLocation, then poll OutputLocation (the answer) and FailureLocation.
 */
export function asyncSnippet(language: SnippetLanguage, endpoint: string, body: unknown): string {
  const json = JSON.stringify(body, null, 2);
  const input = `async/${endpoint}/in/`;
  if (language === "python") {
    return `import json, time, uuid
import boto3

s3 = boto3.client("s3")
runtime = boto3.client("sagemaker-runtime")
bucket = "<artifact-bucket>"
body = json.loads(r"""
${json}
""")

key = f"${input}{uuid.uuid4()}.json"
s3.put_object(Bucket=bucket, Key=key, Body=json.dumps(body), ContentType="application/json")
queued = runtime.invoke_endpoint_async(
    EndpointName="${endpoint}",
    InputLocation=f"s3://{bucket}/{key}",
    ContentType="application/json",
)

def read(uri):
    _, _, path = uri.partition("s3://")
    bucket, _, key = path.partition("/")
    try:
        return s3.get_object(Bucket=bucket, Key=key)["Body"].read()
    except s3.exceptions.NoSuchKey:
        return None

while True:
    answer = read(queued["OutputLocation"])
    if answer is not None:
        print(json.loads(answer))
        break
    failure = read(queued["FailureLocation"])
    if failure is not None:
        raise RuntimeError(failure.decode())
    time.sleep(1)
`;
  }
  if (language === "cli") {
    return `BUCKET=<artifact-bucket>
KEY=${input}$(uuidgen).json
cat > request.json <<'JSON'
${json}
JSON
aws s3 cp request.json "s3://$BUCKET/$KEY" --content-type application/json
OUTPUT=$(aws sagemaker-runtime invoke-endpoint-async \\
  --endpoint-name ${endpoint} \\
  --content-type application/json \\
  --input-location "s3://$BUCKET/$KEY" \\
  --query OutputLocation --output text)
until aws s3 cp "$OUTPUT" response.json 2>/dev/null; do sleep 1; done
cat response.json
`;
  }
  return `import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { InvokeEndpointAsyncCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";

const s3 = new S3Client({});
const runtime = new SageMakerRuntimeClient({});
const bucket = "<artifact-bucket>";
const body = ${json};

const key = \`${input}\${crypto.randomUUID()}.json\`;
await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(body), ContentType: "application/json" }));
const queued = await runtime.send(
  new InvokeEndpointAsyncCommand({
    EndpointName: "${endpoint}",
    InputLocation: \`s3://\${bucket}/\${key}\`,
    ContentType: "application/json",
  }),
);

/** The object's text, or undefined while SageMaker has not written it. */
async function read(uri: string | undefined): Promise<string | undefined> {
  const [, objectBucket, objectKey] = /^s3:\\/\\/([^/]+)\\/(.+)$/.exec(uri ?? "") ?? [];
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: objectBucket, Key: objectKey }));
    return await object.Body?.transformToString();
  } catch (error) {
    if (error instanceof NoSuchKey) return undefined;
    throw error;
  }
}

for (;;) {
  const answer = await read(queued.OutputLocation);
  if (answer !== undefined) {
    console.log(JSON.parse(answer));
    break;
  }
  const failure = await read(queued.FailureLocation);
  if (failure !== undefined) throw new Error(failure);
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
`;
}
