/**
 * Request snippets an application can start from, with the same body the playground sends. Each prints the
 * endpoint's answer as one JSON document on stdout and nothing else; the TypeScript has no top-level await, so it
 * runs as CommonJS (a new project's default) as well as an ES module.
 */
export type SnippetLanguage = "typescript" | "python" | "cli";

export function snippet(language: SnippetLanguage, endpoint: string, body: unknown): string {
  const json = JSON.stringify(body, null, 2);
  if (language === "python") {
    return `import json, random, time
import boto3

runtime = boto3.client("sagemaker-runtime")
body = json.loads(r"""
${json}
""")

def invoke(body, attempts=6):
    for attempt in range(attempts):
        try:
            response = runtime.invoke_endpoint(
                EndpointName="${endpoint}",
                ContentType="application/json",
                Body=json.dumps(body),
            )
            return json.loads(response["Body"].read())
        except runtime.exceptions.ModelError as error:
            # 503 "model is busy" is retryable; anything else is a real error.
            if error.response.get("OriginalStatusCode") != 503 or attempt == attempts - 1:
                raise
            time.sleep(random.uniform(0, min(2.0, 0.1 * 2 ** attempt)))

print(json.dumps(invoke(body), indent=2))
`;
  }
  if (language === "cli") {
    return `cat > request.json <<'JSON'
${json}
JSON
aws sagemaker-runtime invoke-endpoint \\
  --endpoint-name ${endpoint} \\
  --content-type application/json \\
  --body fileb://request.json \\
  response.json >/dev/null && cat response.json
`;
  }
  return `import { InvokeEndpointCommand, ModelError, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";

const runtime = new SageMakerRuntimeClient({});
const body = ${json};

/** Retries 503 "model is busy" with capped exponential backoff and full jitter. */
async function invoke(request: unknown, attempts = 6): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await runtime.send(
        new InvokeEndpointCommand({
          EndpointName: "${endpoint}",
          ContentType: "application/json",
          Body: JSON.stringify(request),
        }),
      );
      return JSON.parse(new TextDecoder().decode(response.Body));
    } catch (error) {
      const busy = error instanceof ModelError && error.OriginalStatusCode === 503;
      if (!busy || attempt === attempts - 1) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2000, 100 * 2 ** attempt)));
    }
  }
}

invoke(body).then((answer) => console.log(JSON.stringify(answer, null, 2)));
`;
}
