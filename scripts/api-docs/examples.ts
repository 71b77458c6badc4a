import { createHash } from "node:crypto";
import type { ConsoleApi } from "../../contract/api.ts";

/**
 * One curl call per mutating route, written to run in order against a local console (`npm start`) from the
 * repository root, after the setup block of docs/api-routes.md. A `$NAME` in a body is a shell variable that an
 * earlier example sets; `sample` gives the value the docs test substitutes to check the body against its schema.
 */
export interface CurlExample {
  /** Path after `$CONSOLE`, with shell variables. */
  path: string;
  /** A JSON body (sent with `--data @-` from a here-document, so `$VARIABLES` expand). */
  json?: unknown;
  /** Other curl arguments (a multipart upload). */
  args?: string[];
  /** Capture a field of the answer into a shell variable for later examples. */
  capture?: { variable: string; field: string };
  /** Arguments for the session cookie: `-c` to store it (sign-in), `-b` to send it (default). */
  cookies?: "store";
  /** Shell lines to run first (look something up) or after (wait for the endpoint). */
  before?: string[];
  after?: string[];
  /** Why this call may answer something else on a fresh console. */
  note?: string;
}

const readField = (field: string) => `node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).${field}'`;
const untilServing = (endpoint: string) => {
  const read = (field: string) => `curl -sS -b cookies.txt "$CONSOLE/api/endpoints/${endpoint}" | ${readField(field)}`;
  return [
    "# Wait until the endpoint serves (a local adapter process starts in seconds; SageMaker takes minutes);",
    "# an endpoint that failed prints why and ends the wait.",
    `while STATUS=$(${read("status")}); [ "$STATUS" != InService ]; do [ "$STATUS" = Failed ] && { ${read("failureReason")} >&2; break; }; sleep 2; done`,
  ];
};
const untilInService = untilServing("dc-demo");
const asyncDeploy = JSON.stringify({
  name: "dc-demo-async",
  imageUri: "$IMAGE",
  modelDataUrl: "s3://decision-console-local/models/seed/synthetic-tiny/model.tar.gz",
  compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: 1 },
  invocation: { mode: "asynchronous" },
});

/** What the shell variables stand for when a body is checked against its schema. */
export const sampleValues: Record<string, string> = {
  IMAGE: `127.0.0.1:4599/decision-adapter@sha256:${"ab".repeat(32)}`,
  DATASET: "2f1e3c1a-0000-4000-8000-000000000000",
  RUN: "7c1e3c1a-0000-4000-8000-000000000000",
  LABELLED: "5b0e2d1c-0000-4000-8000-000000000000",
  GATEWAY_KEY: "k3y1d000",
};

const decision = {
  id: "ticket-1",
  state: "Customer: I was charged twice for my subscription this month.",
  question: "Which team should handle this ticket?",
  options: [
    { id: "billing", description: "Billing: charges, refunds, invoices." },
    { id: "support", description: "Technical support: bugs and outages." },
  ],
};

/** A decision kind's id as the console computes it (server/monitoring/capture-record.ts): question and option ids. */
function decisionKindOf(example: { question: string; options: { id: string }[] }): string {
  const ids = example.options.map((option) => option.id);
  return createHash("sha256")
    .update(JSON.stringify([example.question, ids]))
    .digest("hex")
    .slice(0, 16);
}

/** In the order they run: each may use what an earlier one created. */
export const curlExamples: Partial<Record<keyof ConsoleApi, CurlExample>> = {
  login: {
    path: "/api/auth/login",
    json: { name: "ops", password: "a long passphrase of yours" },
    cookies: "store",
    note: "Needs a console user (`npm run users -- add ops --role operator`). With none configured the answer is 409 and every call from loopback runs as the local operator, cookie or not.",
  },
  startBuild: {
    path: "/api/builds",
    json: { kind: "image", variant: "cpu" },
    capture: { variable: "BUILD", field: "id" },
  },
  stopBuild: {
    path: "/api/builds/$BUILD/stop",
    note: "A local image build has usually ended already; StopBuild then answers it as it is.",
    after: [
      "# Wait until the build has ended (STOPPED, or whatever it reached first).",
      `until [ "$(curl -sS -b cookies.txt "$CONSOLE/api/builds/$BUILD" | ${readField("status")})" != IN_PROGRESS ]; do sleep 1; done`,
    ],
  },
  retryBuild: { path: "/api/builds/$BUILD/retry" },
  deploy: {
    before: [`IMAGE=$(curl -sS -b cookies.txt "$CONSOLE/api/images?tag=cpu" | ${readField("imageUri")})`],
    path: "/api/endpoints",
    json: {
      name: "dc-demo",
      imageUri: "$IMAGE",
      modelDataUrl: "s3://decision-console-local/models/seed/synthetic-tiny/model.tar.gz",
      compute: { kind: "cpu", instanceType: "ml.c6i.large", threads: 1 },
      dataCapture: { samplingPercentage: 100 },
    },
    after: untilInService,
  },
  invoke: { path: "/api/endpoints/dc-demo/invoke", json: { body: { decision } } },
  invokeAsync: {
    before: [
      "# An asynchronous endpoint of the same model: requests and answers go through async/dc-demo-async/ in S3.",
      `curl -sS -b cookies.txt -X POST -H "origin: $CONSOLE" -H 'content-type: application/json' "$CONSOLE/api/endpoints" --data "${asyncDeploy.replaceAll('"', '\\"')}"`,
      ...untilServing("dc-demo-async"),
    ],
    path: "/api/endpoints/dc-demo-async/invoke-async",
    json: { body: { decision } },
    capture: { variable: "INFERENCE", field: "inferenceId" },
    after: [
      "# Poll the outcome until it is no longer pending (queued or running).",
      `until [ "$(curl -sS -b cookies.txt "$CONSOLE/api/endpoints/dc-demo-async/invoke-async/$INFERENCE" | ${readField("status")})" != pending ]; do sleep 1; done`,
    ],
  },
  scaleEndpoint: { path: "/api/endpoints/dc-demo", json: { instanceCount: 2 }, after: untilInService },
  updateEndpoint: {
    path: "/api/endpoints/dc-demo/update",
    json: {
      change: { temperature: 1.5 },
      strategy: { kind: "canary", size: { unit: "instances", value: 1 }, waitSeconds: 30 },
      alarms: { kind: "standard", latencyAverageMs: 2000 },
    },
    note: "The canary bakes for 30 seconds under its rollback alarms; the next call aborts it.",
  },
  abortUpdate: {
    path: "/api/endpoints/dc-demo/update/abort",
    note: "Only while an update bakes under its rollback alarms (409 otherwise): the console sets the first alarm to ALARM and SageMaker rolls back to the previous configuration.",
    after: untilInService,
  },
  startShadowTest: {
    path: "/api/endpoints/dc-demo/shadow",
    json: { change: { temperature: 0.7 }, samplingPercentage: 100 },
    note: "The endpoint updates to a configuration with the candidate as its shadow variant; callers keep getting production's answers.",
    after: untilInService,
  },
  endShadowTest: {
    path: "/api/endpoints/dc-demo/shadow",
    note: "Back to the configuration before the test; the next call starts the same test again to promote it.",
    after: [
      ...untilInService,
      `curl -sS -b cookies.txt -X POST "$CONSOLE/api/endpoints/dc-demo/shadow" -H 'content-type: application/json' --data '{"change":{"temperature":0.7}}'`,
      ...untilInService,
    ],
  },
  promoteShadow: {
    path: "/api/endpoints/dc-demo/shadow/promote",
    json: { strategy: { kind: "all-at-once", waitSeconds: 0 }, alarms: { kind: "none" } },
    capture: { variable: "BEFORE_PROMOTION", field: "endpointConfigName" },
    note: "The test ends first; the update to the candidate starts once the endpoint is InService again.",
    before: [
      "# The shadow test's configuration: the endpoint reports it until going back to BEFORE_PROMOTION completes.",
      `SHADOW_CONFIG=$(curl -sS -b cookies.txt "$CONSOLE/api/endpoints/dc-demo" | ${readField("config.name")})`,
    ],
    after: [
      "# Wait (4 minutes at most) until the candidate's update has replaced both the test's configuration and the",
      "# one it went back to (DescribeEndpoint names a configuration once an update to it completes); then until it serves.",
      `for _ in $(seq 120); do CONFIG=$(curl -sS -b cookies.txt "$CONSOLE/api/endpoints/dc-demo" | ${readField("config.name")}); [ "$CONFIG" != "$BEFORE_PROMOTION" ] && [ "$CONFIG" != "$SHADOW_CONFIG" ] && break; sleep 2; done`,
      ...untilInService,
    ],
  },
  setEndpointThreshold: {
    path: "/api/endpoints/dc-demo/threshold",
    json: { threshold: 0.7 },
    note: "The Monitoring view (and `GET …/monitoring` without `threshold`) then reads the fallback rate against 0.70.",
  },
  setDrift: {
    before: [
      "# Alarms are set only on a kind the endpoint captured or has a baseline for: wait until Monitoring has read the",
      "# invoke step's captured decision (its capture object is written about a second after the call).",
      `for _ in $(seq 60); do [ "$(curl -sS -b cookies.txt "$CONSOLE/api/endpoints/dc-demo/monitoring?window=1h" | ${readField("kindPage.total")})" != "0" ] && break; sleep 1; done`,
    ],
    path: "/api/endpoints/dc-demo/drift",
    json: { kind: decisionKindOf(decision), alarmThreshold: 0.2 },
    note: 'The alarms of the invoke step\'s decision kind (its id: the question and option ids, hashed; `GET /api/endpoints/<name>/monitoring` lists each kind\'s). They stay INSUFFICIENT_DATA until the kind has a baseline: `"baseline": {"source": "window", "from": "…", "to": "…"}` (decisions an endpoint with data capture on captured then) or `{"source": "evaluation", "runId": "$RUN"}` (the run\'s items of the kind). `GET` on the same path shows the drift and the alarms\' states.',
  },
  labelDecision: {
    before: [
      "# The review queue's first decision (dc-demo captures every invocation: the invoke step's decision, once its",
      "# capture object is written, about a second after the call), labelled with its first option.",
      `for _ in $(seq 60); do [ "$(curl -sS -b cookies.txt "$CONSOLE/api/endpoints/dc-demo/review?limit=1" | ${readField("items.length")})" != "0" ] && break; sleep 1; done`,
      `REVIEW_LABEL=$(curl -sS -b cookies.txt "$CONSOLE/api/endpoints/dc-demo/review?limit=1" | node -pe 'const i = JSON.parse(require("fs").readFileSync(0, "utf8")).items[0] ?? {}; JSON.stringify({ objectKey: i.objectKey, line: i.line, item: i.item, label: i.options?.[0]?.id })')`,
    ],
    path: "/api/endpoints/dc-demo/review/labels",
    args: ['-H "content-type: application/json"', '--data "$REVIEW_LABEL"'],
    note: "A label that is not one of the decision's options is a 400; `skip: true` in place of `label` skips the decision.",
  },
  exportReview: {
    before: [
      `REVIEW_KIND=$(curl -sS -b cookies.txt "$CONSOLE/api/endpoints/dc-demo/review?limit=1" | ${readField("kinds[0]?.kind")})`,
    ],
    path: "/api/endpoints/dc-demo/review/export",
    json: { kind: "$REVIEW_KIND", name: "dc-demo reviewed" },
    capture: { variable: "REVIEW_DATASET", field: "datasetId" },
    note: "400 while the kind has no labelled decisions; the dataset's id goes to `POST /api/evaluations`.",
  },
  recordGroundTruth: {
    before: [
      "# A decision whose truth is learnt later: the playground's invoke answers its inference id in x-inference-id.",
      `LABELLED=$(curl -sS -b cookies.txt -o /dev/null -D - -X POST -H "origin: $CONSOLE" -H 'content-type: application/json' "$CONSOLE/api/endpoints/dc-demo/invoke" --data '${JSON.stringify({ body: { decision: { ...decision, id: "ticket-2" } } })}' | tr -d '\\r' | sed -n 's/^x-inference-id: //Ip')`,
      "# Its capture object is written about a second after the call: try until the capture names it.",
      `for _ in $(seq 30); do curl -sS -o /dev/null -b cookies.txt -X POST -H "origin: $CONSOLE" -H 'content-type: application/json' "$CONSOLE/api/endpoints/dc-demo/ground-truth" --data "{\\"labels\\": [{\\"inferenceId\\": \\"$LABELLED\\", \\"label\\": \\"billing\\", \\"labelledAt\\": \\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\\"}]}" 2>/dev/null && break; sleep 1; done`,
    ],
    path: "/api/endpoints/dc-demo/ground-truth",
    json: { labels: [{ inferenceId: "$LABELLED", label: "billing", labelledAt: "2026-12-07T12:00:00Z" }] },
    note: "Sending the same rows again changes nothing; a row naming an unknown inference id or an option the decision did not have is a 400 listing each refused row, and none is stored.",
  },
  importGroundTruth: {
    path: "/api/endpoints/dc-demo/ground-truth/import",
    json: { prefix: "ground-truth/dc-demo/" },
    note: "Reads SageMaker Model Monitor's ground-truth files under the prefix; none here yet, so it counts 0 objects.",
  },
  putAutoscaling: {
    path: "/api/endpoints/dc-demo/autoscaling",
    json: { minCapacity: 1, maxCapacity: 2, targetInvocationsPerInstance: 100 },
  },
  deleteAutoscaling: { path: "/api/endpoints/dc-demo/autoscaling" },
  uploadDataset: {
    path: "/api/datasets",
    args: ['-F "file=@server/evaluate/samples/jevbench.jsonl"', '-F "name=jevbench-upload"'],
    capture: { variable: "DATASET", field: "id" },
  },
  startEvaluation: {
    path: "/api/evaluations",
    json: { datasetId: "$DATASET", endpoints: ["dc-demo"], concurrency: 1 },
    capture: { variable: "RUN", field: "id" },
  },
  exportDataset: { path: "/api/datasets/$DATASET/export" },
  startTransformJob: {
    path: "/api/batch",
    json: {
      name: "dc-demo-batch",
      modelName: "dc-demo",
      inputS3Uri: "s3://decision-console-local/batch/inputs/$DATASET/",
      instanceType: "ml.c6i.large",
    },
  },
  stopTransformJob: { path: "/api/batch/dc-demo-batch/stop" },
  registerModelVersion: {
    before: [
      "# The first-run model's packaging build (npm start seeds it as a model build of the console's project).",
      `MODEL_BUILD=$(curl -sS -b cookies.txt "$CONSOLE/api/builds" | ${readField('builds.find((b) => b.outputs.modelDataUrl?.endsWith("/seed/synthetic-tiny/model.tar.gz")).id')})`,
    ],
    path: "/api/models",
    json: {
      group: "dc-demo-router",
      groupDescription: "Routes support tickets",
      modelBuildId: "$MODEL_BUILD",
      imageUri: "$IMAGE",
      description: "first candidate",
    },
    note: "The build must have SUCCEEDED. The version starts PendingManualApproval; the answer says its number (1 on a fresh console).",
  },
  attachModelEvaluation: {
    before: [
      "# A completed run of dc-demo, which serves this artifact with this image (the run above may still be going).",
      `EVALUATED=$(curl -sS -b cookies.txt -X POST -H "origin: $CONSOLE" -H 'content-type: application/json' "$CONSOLE/api/evaluations" --data "{\\"datasetId\\": \\"$DATASET\\", \\"endpoints\\": [\\"dc-demo\\"], \\"concurrency\\": 4}" | ${readField("id")})`,
      `until [ "$(curl -sS -b cookies.txt "$CONSOLE/api/evaluations/$EVALUATED" | ${readField("status")})" != running ]; do sleep 1; done`,
    ],
    path: "/api/models/dc-demo-router/1/evaluation",
    json: { evaluationId: "$EVALUATED" },
    note: "The run must have completed on an endpoint that serves this version's image and model data; otherwise 409 says what it served.",
  },
  decideModelApproval: {
    path: "/api/models/dc-demo-router/1/approval",
    json: { status: "Approved", note: "JevBench accuracy holds, calibration within target" },
    note: "Operators only; audited. Deploy it with `modelVersionArn` (with the version's imageUri and modelDataUrl) in POST /api/endpoints.",
  },
  chooseEvaluation: {
    path: "/api/endpoints/dc-demo/evaluation",
    json: { runId: "$EVALUATED" },
    note: "A completed run of dc-demo. Its realised quality (`GET /api/endpoints/dc-demo/realised`) then stands beside this run's figures, `evaluation.basis` saying why (`chosen`), by whom and when, until a deployment, promotion or update of a version with an attached evaluation.",
  },
  cancelEvaluation: { path: "/api/evaluations/$RUN/cancel" },
  retryFailedEvaluationItems: {
    path: "/api/evaluations/$RUN/retry-failed",
    after: [
      "# The items the cancel left unanswered are asked again: the run is running until they are done.",
      `until [ "$(curl -sS -b cookies.txt "$CONSOLE/api/evaluations/$RUN" | ${readField("status")})" != running ]; do sleep 1; done`,
    ],
    note: "409 while the run is running or for a batch run; a run with no failed item is answered as it is.",
  },
  deleteEvaluation: {
    path: "/api/evaluations/$RUN",
    after: [
      "# The run attached to the version, too (the version keeps its figures and its report in S3), so the dataset can go.",
      `curl -sS -b cookies.txt -X DELETE -H "origin: $CONSOLE" "$CONSOLE/api/evaluations/$EVALUATED"`,
    ],
  },
  deleteDataset: { path: "/api/datasets/$DATASET" },
  createGatewayKey: {
    path: "/api/gateway/keys",
    json: {
      name: "ticket router",
      endpoints: ["dc-demo"],
      aliases: { router: "dc-demo" },
      requestsPerMinute: 60,
      tokensPerMinute: 100000,
      expiresAt: null,
    },
    capture: { variable: "GATEWAY_KEY", field: "key.id" },
    note: "Operators only; audited. The answer's `secret` is shown this once: applications send it as `Authorization: Bearer <secret>` to /v1/systemone and /v1/decisions (docs/gateway.md).",
  },
  updateGatewayKey: { path: "/api/gateway/keys/$GATEWAY_KEY", json: { requestsPerMinute: 120 } },
  revokeGatewayKey: { path: "/api/gateway/keys/$GATEWAY_KEY/revoke" },
  deleteEndpoint: { path: "/api/endpoints/dc-demo" },
  logout: { path: "/api/auth/logout" },
};

export { readField };
