import type { z } from "zod";
import { auditPageSchema, auditQuerySchema } from "./audit/audit.ts";
import {
  loginRequestSchema,
  loginResponseSchema,
  logoutResponseSchema,
  meResponseSchema,
  oidcStartQuerySchema,
} from "./auth/session.ts";
import {
  datasetExportSchema,
  startTransformJobSchema,
  stopTransformJobResultSchema,
  transformJobDetailSchema,
  transformJobListSchema,
  transformJobSummarySchema,
} from "./batch/transform-jobs.ts";
import {
  buildListSchema,
  buildLogsQuerySchema,
  buildLogsSchema,
  buildSchema,
  startBuildRequestSchema,
} from "./builds/builds.ts";
import { modelPresetListSchema } from "./builds/model-presets.ts";
import { endpointAlarmsSchema } from "./endpoints/alarms.ts";
import { autoscalingRequestSchema, autoscalingResponseSchema } from "./endpoints/autoscaling.ts";
import { deployRequestSchema, deployResultSchema } from "./endpoints/deploy.ts";
import { driftRequestSchema, driftResponseSchema } from "./endpoints/drift.ts";
import {
  deleteResultSchema,
  endpointDetailSchema,
  endpointListSchema,
  scaleRequestSchema,
  scaleResultSchema,
} from "./endpoints/endpoint.ts";
import { chooseEvaluationSchema, evaluationLinkSchema } from "./endpoints/evaluation-link.ts";
import {
  groundTruthBatchSchema,
  groundTruthImportResultSchema,
  groundTruthImportSchema,
  groundTruthResultSchema,
} from "./endpoints/ground-truth.ts";
import { endpointLogsQuerySchema, endpointLogsSchema } from "./endpoints/logs.ts";
import { endpointMetricsResponseSchema, metricsQuerySchema } from "./endpoints/metrics.ts";
import {
  endpointThresholdSchema,
  monitoringQuerySchema,
  monitoringResponseSchema,
  setThresholdSchema,
  thresholdInUseSchema,
} from "./endpoints/monitoring.ts";
import { realisedQualitySchema, realisedQuerySchema } from "./endpoints/realised-quality.ts";
import {
  exportReviewResultSchema,
  exportReviewSchema,
  labelDecisionSchema,
  reviewLabelSchema,
  reviewQuerySchema,
  reviewQueueSchema,
} from "./endpoints/review.ts";
import {
  endShadowTestResultSchema,
  promoteShadowRequestSchema,
  promoteShadowResultSchema,
  shadowPromotionStateSchema,
  shadowTestRequestSchema,
  shadowTestResultSchema,
} from "./endpoints/shadow-test.ts";
import { abortUpdateResultSchema, updateRequestSchema, updateResultSchema } from "./endpoints/update.ts";
import {
  datasetDetailSchema,
  datasetListSchema,
  datasetSummarySchema,
  uploadDatasetSchema,
} from "./evaluate/datasets.ts";
import {
  createEvaluationSchema,
  evaluationDetailSchema,
  evaluationListSchema,
  evaluationQuerySchema,
  evaluationResponseSchema,
  evaluationSummarySchema,
  exportQuerySchema,
} from "./evaluate/evaluations.ts";
import {
  createdGatewayKeySchema,
  createGatewayKeySchema,
  gatewayKeyListSchema,
  gatewayKeySchema,
  updateGatewayKeySchema,
} from "./gateway/keys.ts";
import { healthSchema } from "./health/health.ts";
import { imagesQuerySchema, imagesResponseSchema } from "./images/images.ts";
import { invocationListSchema, invocationsQuerySchema, invokeRequestSchema } from "./invoke/invoke.ts";
import {
  asyncInvocationSchema,
  asyncInvokeRequestSchema,
  asyncOutcomeSchema,
  asyncRequestListSchema,
  asyncRequestsQuerySchema,
} from "./invoke/invoke-async.ts";
import {
  approvalRequestSchema,
  attachEvaluationSchema,
  modelGroupDetailSchema,
  modelGroupListSchema,
  modelVersionDetailSchema,
  modelVersionSchema,
  registerVersionSchema,
} from "./models/model-registry.ts";
import { openApiDocumentSchema } from "./openapi/openapi.ts";
import { consoleSettingsSchema } from "./settings/settings.ts";

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One route of the console's HTTP API: what it takes and what it answers. */
export interface ApiRoute {
  method: ApiMethod;
  /** In the app directory's notation: `/api/endpoints/[name]`. */
  path: string;
  summary: string;
  query?: z.ZodType;
  /** The JSON request body. */
  body?: z.ZodType;
  /** The JSON response body at `status`; null when the answer is not JSON (see `note`). */
  response: z.ZodType | null;
  status: number;
  /** What the schemas do not say: other bodies, streams, downloads, redirects. */
  note?: string;
}

/**
 * Every route handler under `app/api`, keyed by what it does. Handlers read their input with these schemas and
 * answer values of these types (`reply` in server/http/route.ts); docs/api-routes.md is generated from this table
 * (`npm run docs:api`), and a test fails when a handler is missing from it.
 */
export const consoleApi = {
  health: {
    method: "GET",
    path: "/api/health",
    summary: "Liveness and mode; no sign-in and no AWS call.",
    response: healthSchema,
    status: 200,
    note: "503 with the same body (`degraded`) when a configured control plane (local mode) is not ok.",
  },
  openApi: {
    method: "GET",
    path: "/api/openapi.json",
    summary: "This API as an OpenAPI 3.1 document, generated from the route table; no sign-in.",
    response: openApiDocumentSchema,
    status: 200,
    note: "The same document as docs/openapi.json (`npm run gen:openapi`).",
  },
  consoleSettings: {
    method: "GET",
    path: "/api/settings",
    summary: "Mode, region and the prefix names must start with (the console's IAM policy allows only those).",
    response: consoleSettingsSchema,
    status: 200,
  },
  login: {
    method: "POST",
    path: "/api/auth/login",
    summary: "Sign in with a console user's name and password.",
    body: loginRequestSchema,
    response: loginResponseSchema,
    status: 200,
    note: "The session cookie comes in `Set-Cookie`. 409 when no users are configured (loopback runs as the local operator), 429 with `Retry-After` when throttled.",
  },
  logout: {
    method: "POST",
    path: "/api/auth/logout",
    summary: "End this session on the server (its id is revoked) and clear the cookie.",
    response: logoutResponseSchema,
    status: 200,
  },
  me: {
    method: "GET",
    path: "/api/auth/me",
    summary: "Who is signed in, and how this console signs people in.",
    response: meResponseSchema,
    status: 200,
  },
  oidcStart: {
    method: "GET",
    path: "/api/auth/oidc/start",
    summary: "Start single sign-on (`?next=` a path of this console).",
    query: oidcStartQuerySchema,
    response: null,
    status: 302,
    note: "Redirects to the identity provider; 404 when single sign-on is not configured.",
  },
  oidcCallback: {
    method: "GET",
    path: "/api/auth/oidc/callback",
    summary: "The identity provider's return: sets the session cookie.",
    response: null,
    status: 303,
    note: "Redirects to `next`.",
  },
  audit: {
    method: "GET",
    path: "/api/audit",
    summary: "The audit log, newest first.",
    query: auditQuerySchema,
    response: auditPageSchema,
    status: 200,
  },
  listEndpoints: {
    method: "GET",
    path: "/api/endpoints",
    summary:
      "Every endpoint (all pages of ListEndpoints) with status, serving instances, image, model and $/hour; endpoints outside the console's prefix (CONSOLE_RESOURCE_PREFIX) are listed with managed: false and not described.",
    response: endpointListSchema,
    status: 200,
  },
  deploy: {
    method: "POST",
    path: "/api/endpoints",
    summary: "Deploy: CreateModel, CreateEndpointConfig and CreateEndpoint, all named `name`.",
    body: deployRequestSchema,
    response: deployResultSchema,
    status: 202,
  },
  describeEndpoint: {
    method: "GET",
    path: "/api/endpoints/[name]",
    summary: "One endpoint: config, variants and pools, container settings, failure reason, autoscaling.",
    response: endpointDetailSchema,
    status: 200,
  },
  scaleEndpoint: {
    method: "PATCH",
    path: "/api/endpoints/[name]",
    summary: "Set the variant's instance count (409 unless InService).",
    body: scaleRequestSchema,
    response: scaleResultSchema,
    status: 202,
  },
  updateEndpoint: {
    method: "POST",
    path: "/api/endpoints/[name]/update",
    summary:
      "Update in place: a new model and endpoint config (`<endpoint>-<short sha>`) with the change, the rollback alarms (PutMetricAlarm for the standard ones), then UpdateEndpoint with blue/green (all at once, canary, linear) or rolling traffic shifting (409 unless InService).",
    body: updateRequestSchema,
    response: updateResultSchema,
    status: 202,
  },
  abortUpdate: {
    method: "POST",
    path: "/api/endpoints/[name]/update/abort",
    summary:
      "Abort and roll back the update in progress: SetAlarmState ALARM on its first rollback alarm, on which SageMaker moves all traffic back to the old fleet (409 when no update runs or it watches no alarm).",
    response: abortUpdateResultSchema,
    status: 202,
  },
  deleteEndpoint: {
    method: "DELETE",
    path: "/api/endpoints/[name]",
    summary:
      "Delete the endpoint, its config and its model, and forget its evaluation links, threshold and drift baselines (409 while it is changing).",
    response: deleteResultSchema,
    status: 200,
  },
  endpointMonitoring: {
    method: "GET",
    path: "/api/endpoints/[name]/monitoring",
    summary:
      "The endpoint's decisions from its data capture files: per decision kind (question and option set) the decisions per interval, chosen options, top-probability distribution, the share below `threshold` (the endpoint's stored threshold when not given, 0.5 when none is stored) and latency. Decision kinds come a page of 10 at a time, most decisions first (`kindPage`), or those whose question contains `kindSearch`. Answered from the console's store at once: a background reader (one replica, every 10 s) reads new capture objects into it, and `source.reading` says how far it has got (`source.moreToRead` while objects wait to be read); records whose probabilities are not a distribution are counted in `source.unreadableRecords`. Without `window`, the data's span: the smallest window holding every decision of the last 7 days (`windowChosenBy: \"data-span\"`). Each kind and the window count their decisions by source (`sources`: gateway `dc-gw-…`, evaluation `dc-eval-…`, direct); the console's evaluation runner's requests are left out unless `includeEvaluation=true`.",
    query: monitoringQuerySchema,
    response: monitoringResponseSchema,
    status: 200,
  },
  endpointThreshold: {
    method: "GET",
    path: "/api/endpoints/[name]/threshold",
    summary:
      "The threshold the endpoint's decisions are read against everywhere (playground, Monitoring, realised quality): the one kept on the endpoint, else the default 0.5, with who kept it and when.",
    response: thresholdInUseSchema,
    status: 200,
  },
  setEndpointThreshold: {
    method: "PUT",
    path: "/api/endpoints/[name]/threshold",
    summary:
      "Stores the endpoint's decision threshold (hundredths, 0.01 to 0.99): a decision whose top probability is below it falls back. The Monitoring view's fallback rate is read against it unless a `threshold` is asked for. Operators; audited as `endpoint.threshold.set`.",
    body: setThresholdSchema,
    response: endpointThresholdSchema,
    status: 200,
  },
  startShadowTest: {
    method: "POST",
    path: "/api/endpoints/[name]/shadow",
    summary:
      "Starts a shadow test: the change (a model version, model data, temperature, …) as a shadow variant that gets `samplingPercentage` of the endpoint's requests copied; callers keep getting production's answers. 409 unless InService or while a test runs.",
    body: shadowTestRequestSchema,
    response: shadowTestResultSchema,
    status: 200,
  },
  endShadowTest: {
    method: "DELETE",
    path: "/api/endpoints/[name]/shadow",
    summary: "Ends the shadow test this console started: the endpoint goes back to its configuration before the test.",
    response: endShadowTestResultSchema,
    status: 200,
  },
  shadowPromotionState: {
    method: "GET",
    path: "/api/endpoints/[name]/shadow",
    summary:
      "A shadow promotion waiting in the background for its update, and the last one given up with its reason (the endpoint gone, failed, updated elsewhere, or the update refused).",
    response: shadowPromotionStateSchema,
    status: 200,
  },
  promoteShadow: {
    method: "POST",
    path: "/api/endpoints/[name]/shadow/promote",
    summary:
      "Promotes the shadow: the test ends, and once the endpoint is InService again the candidate's change runs as the console's safe update (the strategy and rollback alarms given here), audited as `endpoint.update`.",
    body: promoteShadowRequestSchema,
    response: promoteShadowResultSchema,
    status: 200,
  },
  reviewQueue: {
    method: "GET",
    path: "/api/endpoints/[name]/review",
    summary:
      "The review queue: unlabelled production decisions kept from the data capture (7 days), lowest confidence first, at random, or those a shadow decided otherwise, each with its state (read back from its capture object), question, options and probabilities; and the labels given so far, with who gave them. The console's evaluation runner's requests (InferenceId `dc-eval-…`) are left out unless `includeEvaluation=true`.",
    query: reviewQuerySchema,
    response: reviewQueueSchema,
    status: 200,
  },
  labelDecision: {
    method: "POST",
    path: "/api/endpoints/[name]/review/labels",
    summary:
      "Label one captured production decision with one of its options (or `skip: true`); a second label replaces the first. 400 for an option the decision does not have, 404 for a decision not kept. Audited.",
    body: labelDecisionSchema,
    response: reviewLabelSchema,
    status: 200,
  },
  recordGroundTruth: {
    method: "POST",
    path: "/api/endpoints/[name]/ground-truth",
    summary:
      "Labels learnt later, by the inference id InvokeEndpoint was given (`{inferenceId, label, labelledAt, item?}` rows): each is matched with the captured decision(s) of that id and must name one of its options. All rows are stored or none: 400 names each refused row (an unknown id, an option the decision did not have, a shared-state request without item). A label learnt no earlier than the stored one replaces it; sending a batch again changes nothing. Audited.",
    body: groundTruthBatchSchema,
    response: groundTruthResultSchema,
    status: 200,
  },
  importGroundTruth: {
    method: "POST",
    path: "/api/endpoints/[name]/ground-truth/import",
    summary:
      "Reads SageMaker Model Monitor's ground-truth files (JSON Lines of `groundTruthData`, `eventMetadata.eventId`, `eventVersion`) under a prefix of the artifact bucket's `ground-truth/<endpoint>/` and stores the records that name a captured decision and one of its options, each learnt when its file was written; the others are counted and listed with the reason. Audited.",
    body: groundTruthImportSchema,
    response: groundTruthImportResultSchema,
    status: 200,
  },
  realisedQuality: {
    method: "GET",
    path: "/api/endpoints/[name]/realised",
    summary:
      "Realised quality per decision kind over a window (24h hourly, 7d or 30d daily): production decisions captured and labelled, label delay, accuracy and accuracy at the threshold (stored, or `threshold`) with 95% intervals, coverage, Brier, ECE and the reliability bins, beside the figures of the evaluation run the endpoint was last deployed, promoted or updated with (a registry version's attached evaluation) or an operator chose, else the run the kind's drift baseline was set from (`evaluation.basis` says which, why, by whom and when), and the alarm's state (below the evaluation's lower bound with at least 250 labels at the threshold).",
    query: realisedQuerySchema,
    response: realisedQualitySchema,
    status: 200,
  },
  chooseEvaluation: {
    method: "POST",
    path: "/api/endpoints/[name]/evaluation",
    summary:
      "Compare production with this evaluation: realised quality stands beside the figures of `runId`, a completed run that scored the endpoint, until the next deployment, promotion or update to a registry version with an attached evaluation (404 for no such run, 400 for a run of other endpoints or not completed). Operators; audited as `endpoint.evaluation.choose`.",
    body: chooseEvaluationSchema,
    response: evaluationLinkSchema,
    status: 200,
  },
  exportReview: {
    method: "POST",
    path: "/api/endpoints/[name]/review/export",
    summary:
      "Store a decision kind's labelled (not skipped) decisions as a dataset (state, question, options, the label as the answer) for the Evaluate page; answers its id. Audited.",
    body: exportReviewSchema,
    response: exportReviewResultSchema,
    status: 201,
  },
  endpointDrift: {
    method: "GET",
    path: "/api/endpoints/[name]/drift",
    summary:
      "Each baselined decision kind's drift over the last hour (Jensen–Shannon distance of the chosen-option mix and of the top probability, with the sampling noise at these counts), its baseline and its alarms with their states (DescribeAlarms).",
    response: driftResponseSchema,
    status: 200,
  },
  setDrift: {
    method: "PUT",
    path: "/api/endpoints/[name]/drift",
    summary:
      "Sets a decision kind's drift baseline (a capture window or an evaluation run's items of the kind) and/or its alarm threshold (PutMetricAlarm on both drift metrics: Maximum over 5-minute periods, ALARM when 2 of 3 are above it). Operators; audited as `endpoint.drift.set`.",
    body: driftRequestSchema,
    response: driftResponseSchema,
    status: 200,
  },
  endpointMetrics: {
    method: "GET",
    path: "/api/endpoints/[name]/metrics",
    summary:
      "CloudWatch Invocations, ModelLatency (microseconds), 4XX and 5XX series (and an asynchronous endpoint's backlog); each variant's instance count over the window, from Application Auto Scaling's scaling activities.",
    query: metricsQuerySchema,
    response: endpointMetricsResponseSchema,
    status: 200,
  },
  endpointLogs: {
    method: "GET",
    path: "/api/endpoints/[name]/logs",
    summary:
      "The endpoint's recent log lines (/aws/sagemaker/Endpoints/<name>, FilterLogEvents) in a time window, with a CloudWatch filter pattern.",
    query: endpointLogsQuerySchema,
    response: endpointLogsSchema,
    status: 200,
    note: "`logGroupExists: false` until the container has written; a filter pattern CloudWatch refuses is 400.",
  },
  endpointAlarms: {
    method: "GET",
    path: "/api/endpoints/[name]/alarms",
    summary:
      "The alarms the console created for the endpoint (rollback guards, the scale-to-zero wake-up, target tracking's), each with its state and latest state changes (DescribeAlarms, DescribeAlarmHistory).",
    response: endpointAlarmsSchema,
    status: 200,
  },
  getAutoscaling: {
    method: "GET",
    path: "/api/endpoints/[name]/autoscaling",
    summary: "The variant's scalable target and target-tracking policy.",
    response: autoscalingResponseSchema,
    status: 200,
  },
  putAutoscaling: {
    method: "PUT",
    path: "/api/endpoints/[name]/autoscaling",
    summary: "Register the scalable target and put the target-tracking policy.",
    body: autoscalingRequestSchema,
    response: autoscalingResponseSchema,
    status: 200,
  },
  deleteAutoscaling: {
    method: "DELETE",
    path: "/api/endpoints/[name]/autoscaling",
    summary: "Turn autoscaling off (the instance count stays as it is).",
    response: autoscalingResponseSchema,
    status: 200,
  },
  invoke: {
    method: "POST",
    path: "/api/endpoints/[name]/invoke",
    summary: "Playground proxy: `body` goes to the container's /invocations (InvokeEndpoint); 503 busy is retried.",
    body: invokeRequestSchema,
    response: null,
    status: 200,
    note: "The container's bytes and `Content-Type`, unchanged, with or without `stream: true` (InvokeEndpointWithResponseStream; SSE for chat). Both carry `X-Busy-Retries` (busy answers retried first), `X-Invoked-Variant` and `Server-Timing: invoke;dur=<ms>` (until the answer, or until the stream opened). A failed invoke answers with the container's own status and message (`error.details`: `invokeErrorDetailsSchema`).",
  },
  invokeAsync: {
    method: "POST",
    path: "/api/endpoints/[name]/invoke-async",
    summary:
      "Asynchronous endpoints: `body` is written to async/<endpoint>/in/ in the artifact bucket and queued (InvokeEndpointAsync).",
    body: asyncInvokeRequestSchema,
    response: asyncInvocationSchema,
    status: 202,
    note: "400 for a real-time endpoint. Poll `GET /api/endpoints/[name]/invoke-async/[inferenceId]` for the answer.",
  },
  asyncOutcome: {
    method: "GET",
    path: "/api/endpoints/[name]/invoke-async/[inferenceId]",
    summary: "One look at an asynchronous request: pending (queued or running), completed with the answer, or failed.",
    response: asyncOutcomeSchema,
    status: 200,
    note: "Read at the locations InvokeEndpointAsync returned; 404 for a request this console did not send to the endpoint.",
  },
  asyncRequests: {
    method: "GET",
    path: "/api/endpoints/[name]/async-requests",
    summary:
      "Asynchronous requests this console sent (playground and evaluation runs), newest first, with their S3 locations and the state last seen; queued ones are looked up in S3 first (a one-key ListObjectsV2 per location, 20 requests a call).",
    query: asyncRequestsQuerySchema,
    response: asyncRequestListSchema,
    status: 200,
  },
  invocations: {
    method: "GET",
    path: "/api/endpoints/[name]/invocations",
    summary: "Invocations made from this console, newest first.",
    query: invocationsQuerySchema,
    response: invocationListSchema,
    status: 200,
  },
  images: {
    method: "GET",
    path: "/api/images",
    summary:
      "Deployable images by digest (adapter and the Region's llama.cpp DLC), and DLC tags not resolved; `?tag=` resolves one adapter tag.",
    query: imagesQuerySchema,
    response: imagesResponseSchema,
    status: 200,
    note: "`ImageList` without `tag`, one `DeployableImage` with it (404 when the tag is unknown).",
  },
  modelPresets: {
    method: "GET",
    path: "/api/model-presets",
    summary: "Model presets pinned exactly (repo, revision, file, sha256, bytes).",
    response: modelPresetListSchema,
    status: 200,
  },
  listBuilds: {
    method: "GET",
    path: "/api/builds",
    summary: "The newest model-packaging and image builds.",
    response: buildListSchema,
    status: 200,
  },
  startBuild: {
    method: "POST",
    path: "/api/builds",
    summary: "Start a model-packaging build (a pinned GGUF to S3) or an adapter image build.",
    body: startBuildRequestSchema,
    response: buildSchema,
    status: 202,
  },
  getBuild: {
    method: "GET",
    path: "/api/builds/[id]",
    summary: "One build: phases, status, outputs (model S3 URL and sha256, image digest).",
    response: buildSchema,
    status: 200,
  },
  buildLogs: {
    method: "GET",
    path: "/api/builds/[id]/logs",
    summary: "The build's log tail.",
    query: buildLogsQuerySchema,
    response: buildLogsSchema,
    status: 200,
  },
  stopBuild: {
    method: "POST",
    path: "/api/builds/[id]/stop",
    summary: "StopBuild on one of the console's builds: a running build goes to STOPPED.",
    response: buildSchema,
    status: 202,
  },
  retryBuild: {
    method: "POST",
    path: "/api/builds/[id]/retry",
    summary:
      "Run an ended build again with the same inputs: StartBuild on its project with the variables the console set and the same source archive (409 while it runs).",
    response: buildSchema,
    status: 202,
  },
  listDatasets: {
    method: "GET",
    path: "/api/datasets",
    summary: "Stored labelled decision sets and the built-in samples.",
    response: datasetListSchema,
    status: 200,
  },
  uploadDataset: {
    method: "POST",
    path: "/api/datasets",
    summary: "Store a labelled decision set (JSONL or CSV), or add a built-in sample.",
    body: uploadDatasetSchema,
    response: datasetSummarySchema,
    status: 201,
    note: "Or `multipart/form-data` with `file` (and `name`). A file with bad rows is refused whole: 400 naming each line (`error.details.errors`).",
  },
  getDataset: {
    method: "GET",
    path: "/api/datasets/[id]",
    summary: "One dataset with counts per category, tier and answer, and its first items.",
    response: datasetDetailSchema,
    status: 200,
  },
  deleteDataset: {
    method: "DELETE",
    path: "/api/datasets/[id]",
    summary: "Delete a dataset no evaluation uses.",
    response: null,
    status: 204,
  },
  listEvaluations: {
    method: "GET",
    path: "/api/evaluations",
    summary: "Evaluation runs, newest first, with their progress.",
    response: evaluationListSchema,
    status: 200,
  },
  startEvaluation: {
    method: "POST",
    path: "/api/evaluations",
    summary: "Evaluate a dataset on one or two InService endpoints; poll the run for progress.",
    body: createEvaluationSchema,
    response: evaluationSummarySchema,
    status: 201,
  },
  getEvaluation: {
    method: "GET",
    path: "/api/evaluations/[id]",
    summary: "Progress and metrics; `?compareWith=` compares with another run on the same dataset.",
    query: evaluationQuerySchema,
    response: evaluationResponseSchema,
    status: 200,
  },
  deleteEvaluation: {
    method: "DELETE",
    path: "/api/evaluations/[id]",
    summary: "Delete an evaluation that is not running, with its results.",
    response: null,
    status: 204,
  },
  cancelEvaluation: {
    method: "POST",
    path: "/api/evaluations/[id]/cancel",
    summary: "Stop a running evaluation; what finished is kept (409 when it has ended).",
    response: evaluationDetailSchema,
    status: 200,
  },
  retryFailedEvaluationItems: {
    method: "POST",
    path: "/api/evaluations/[id]/retry-failed",
    summary:
      "Ask the items of an ended run that got no answer (busy, timeout...) again, keeping every answer (409 while it runs; a run with none failed is answered as it is).",
    response: evaluationDetailSchema,
    status: 200,
  },
  exportEvaluation: {
    method: "GET",
    path: "/api/evaluations/[id]/export",
    summary: "The run's per-item results as a download.",
    query: exportQuerySchema,
    response: null,
    status: 200,
    note: "`text/csv` (one row per endpoint and item; text cells starting with = + - @, or holding them after a , or ;, are neutralised; cells holding , or ; are quoted) or `application/json`, as an attachment.",
  },
  listTransformJobs: {
    method: "GET",
    path: "/api/batch",
    summary: "The console's batch transform jobs (names with its prefix), newest first, with status and duration.",
    response: transformJobListSchema,
    status: 200,
  },
  startTransformJob: {
    method: "POST",
    path: "/api/batch",
    summary:
      "CreateTransformJob on a model the console deployed (modelName), or on a model it creates, named as the job, from a succeeded model build's output and a cpu adapter image digest (buildOutput): JSON Lines in, SplitType Line, AssembleWith Line, JoinSource Input; CPU instances and the cpu image only.",
    body: startTransformJobSchema,
    response: transformJobSummarySchema,
    status: 202,
  },
  describeTransformJob: {
    method: "GET",
    path: "/api/batch/[name]",
    summary:
      "One job: definition, status, failure reason, outputs written so far and their lines, cost estimate, logs.",
    response: transformJobDetailSchema,
    status: 200,
  },
  stopTransformJob: {
    method: "POST",
    path: "/api/batch/[name]/stop",
    summary: "StopTransformJob (409 once the job has ended).",
    response: stopTransformJobResultSchema,
    status: 202,
  },
  exportDataset: {
    method: "POST",
    path: "/api/datasets/[id]/export",
    summary:
      "Write a stored dataset's decisions to S3 (batch/inputs/<id>/items-NNNNN.jsonl, 100 a file) as a transform job's input.",
    response: datasetExportSchema,
    status: 200,
  },
  listModelGroups: {
    method: "GET",
    path: "/api/models",
    summary: "The Model Registry's model package groups this console manages.",
    response: modelGroupListSchema,
    status: 200,
  },
  registerModelVersion: {
    method: "POST",
    path: "/api/models",
    summary:
      "Register a model build's artifact and an adapter image as a new version of a group (created on first use), PendingManualApproval; with an evaluation run, its report becomes the version's ModelMetrics.",
    body: registerVersionSchema,
    response: modelVersionSchema,
    status: 201,
  },
  getModelGroup: {
    method: "GET",
    path: "/api/models/[group]",
    summary: "A model package group and its versions, newest first, with the evaluation each was judged on.",
    response: modelGroupDetailSchema,
    status: 200,
  },
  getModelVersion: {
    method: "GET",
    path: "/api/models/[group]/[version]",
    summary: "One version: its builds, source revision, model pins, evaluation and the endpoints that serve it.",
    response: modelVersionDetailSchema,
    status: 200,
  },
  attachModelEvaluation: {
    method: "POST",
    path: "/api/models/[group]/[version]/evaluation",
    summary:
      "Attach a completed evaluation run of this version's image and artifact: its report goes to S3 and its figures to the version (not once Approved).",
    body: attachEvaluationSchema,
    response: modelVersionSchema,
    status: 200,
  },
  decideModelApproval: {
    method: "POST",
    path: "/api/models/[group]/[version]/approval",
    summary: "Approve (with an evaluation attached) or reject a version, with a note; operators only, audited.",
    body: approvalRequestSchema,
    response: modelVersionSchema,
    status: 200,
  },
  listGatewayKeys: {
    method: "GET",
    path: "/api/gateway/keys",
    summary:
      "The decision gateway's API keys (never their secrets), each with its calls and tokens per minute over the last 24 hours.",
    response: gatewayKeyListSchema,
    status: 200,
  },
  createGatewayKey: {
    method: "POST",
    path: "/api/gateway/keys",
    summary:
      "Create an API key for /v1/systemone, /v1/decisions and /v1/models; the answer is the only time its secret is shown (operators; audited).",
    body: createGatewayKeySchema,
    response: createdGatewayKeySchema,
    status: 201,
  },
  updateGatewayKey: {
    method: "PATCH",
    path: "/api/gateway/keys/[id]",
    summary: "Change a key's endpoints, aliases, limits or expiry (operators; audited).",
    body: updateGatewayKeySchema,
    response: gatewayKeySchema,
    status: 200,
  },
  revokeGatewayKey: {
    method: "POST",
    path: "/api/gateway/keys/[id]/revoke",
    summary: "Revoke a key: every console replica refuses it from the next call (operators; audited).",
    response: gatewayKeySchema,
    status: 200,
  },
} as const satisfies Record<string, ApiRoute>;

export type ConsoleApi = typeof consoleApi;
