import type { SnippetLanguage } from "./snippets.ts";

/** What the snippets name while the endpoint's bucket is not known. */
export const BUCKET_PLACEHOLDER = "<artifact-bucket>";

/**
 * The bucket a snippet writes its request to: the one of the endpoint's S3OutputPath, which for an endpoint this
 * console deployed is its artifact bucket (the request goes under `async/<endpoint>/in/` beside `out/`, as the
 * console's own requests do). Only a valid bucket name is put into a snippet a user runs, else the placeholder.
 */
export function asyncRequestBucket(outputPath: string | null): string {
  const bucket = /^s3:\/\/([^/]+)(?:\/|$)/.exec(outputPath ?? "")?.[1] ?? "";
  return /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) ? bucket : BUCKET_PLACEHOLDER;
}

/**
 * Snippets for an asynchronous endpoint, with the same body the playground sends: write the request to S3, call
 * InvokeEndpointAsync with it as InputLocation, then poll OutputLocation (the answer) and FailureLocation, and print
 * the answer as one JSON document on stdout.
 * A result is looked for with a one-key ListObjectsV2 before it is read: without s3:ListBucket S3 answers a
 * missing key with 403 AccessDenied, not NoSuchKey, so "not there yet" cannot be told from "not allowed" by a read.
 */
export function asyncSnippet(language: SnippetLanguage, endpoint: string, body: unknown, bucket: string): string {
  const json = JSON.stringify(body, null, 2);
  const input = `async/${endpoint}/in/`;
  if (language === "python") {
    return `import json, time, uuid
import boto3

s3 = boto3.client("s3")
runtime = boto3.client("sagemaker-runtime")
bucket = "${bucket}"
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
    """The object's bytes, or None while SageMaker has not written it."""
    _, _, path = uri.partition("s3://")
    bucket, _, key = path.partition("/")
    listed = s3.list_objects_v2(Bucket=bucket, Prefix=key, MaxKeys=1).get("Contents", [])
    if not listed or listed[0]["Key"] != key:
        return None
    return s3.get_object(Bucket=bucket, Key=key)["Body"].read()

while True:
    answer = read(queued["OutputLocation"])
    if answer is not None:
        print(json.dumps(json.loads(answer), indent=2))
        break
    failure = read(queued["FailureLocation"])
    if failure is not None:
        raise RuntimeError(failure.decode())
    time.sleep(1)
`;
  }
  if (language === "cli") {
    return `BUCKET=${bucket}
# A random key (uuidgen is not on every system).
KEY=${input}$(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n').json
cat > request.json <<'JSON'
${json}
JSON
aws s3 cp request.json "s3://$BUCKET/$KEY" --content-type application/json --quiet
read -r OUTPUT FAILURE < <(aws sagemaker-runtime invoke-endpoint-async \\
  --endpoint-name ${endpoint} \\
  --content-type application/json \\
  --input-location "s3://$BUCKET/$KEY" \\
  --query '[OutputLocation, FailureLocation]' --output text)
# Is the object there? A one-key listing, since without s3:ListBucket a read of a missing key is 403, not 404.
exists() {
  local path=\${1#s3://}
  [ "$(aws s3api list-objects-v2 --bucket "\${path%%/*}" --prefix "\${path#*/}" --max-keys 1 \\
    --query 'Contents[0].Key' --output text)" = "\${path#*/}" ]
}
until exists "$OUTPUT"; do
  if exists "$FAILURE"; then aws s3 cp "$FAILURE" - >&2; exit 1; fi
  sleep 1
done
aws s3 cp "$OUTPUT" response.json --quiet && cat response.json
`;
  }
  return `import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { InvokeEndpointAsyncCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";

const s3 = new S3Client({});
const runtime = new SageMakerRuntimeClient({});
const bucket = "${bucket}";
const body = ${json};

/** The object's text, or undefined while SageMaker has not written it. */
async function read(uri: string | undefined): Promise<string | undefined> {
  const [, objectBucket, objectKey] = /^s3:\\/\\/([^/]+)\\/(.+)$/.exec(uri ?? "") ?? [];
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: objectBucket, Prefix: objectKey, MaxKeys: 1 }));
  if (listed.Contents?.[0]?.Key !== objectKey) return undefined;
  const object = await s3.send(new GetObjectCommand({ Bucket: objectBucket, Key: objectKey }));
  return await object.Body?.transformToString();
}

/** Writes the request to S3, queues it, and waits for the answer SageMaker writes (or its failure). */
async function invokeAsync(request: unknown): Promise<unknown> {
  const key = \`${input}\${crypto.randomUUID()}.json\`;
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(request), ContentType: "application/json" }));
  const queued = await runtime.send(
    new InvokeEndpointAsyncCommand({
      EndpointName: "${endpoint}",
      InputLocation: \`s3://\${bucket}/\${key}\`,
      ContentType: "application/json",
    }),
  );
  for (;;) {
    const answer = await read(queued.OutputLocation);
    if (answer !== undefined) return JSON.parse(answer);
    const failure = await read(queued.FailureLocation);
    if (failure !== undefined) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

invokeAsync(body).then((answer) => console.log(JSON.stringify(answer, null, 2)));
`;
}
