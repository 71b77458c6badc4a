import type { z } from "zod";
import type { ConsoleApi } from "@/contract/api.ts";
import { ApiError, errorFromResponse } from "./api-error.ts";

/** A route of the console's API, by its key in the route table (contract/api.ts). */
export type RouteKey = keyof ConsoleApi;

/** Routes that answer JSON (`response` is a schema); the others are downloads, redirects, streams or bytes. */
export type JsonRouteKey = {
  [K in RouteKey]: ConsoleApi[K]["response"] extends z.ZodType ? K : never;
}[RouteKey];

type ParamNames<P extends string> = P extends `${string}[${infer Name}]${infer Rest}` ? Name | ParamNames<Rest> : never;

type ParamsOption<R extends { path: string }> = [ParamNames<R["path"]>] extends [never]
  ? { params?: never }
  : { params: Record<ParamNames<R["path"]>, string> };

type QueryOption<R> = R extends { query: infer S extends z.ZodType }
  ? object extends z.input<S>
    ? { query?: z.input<S> }
    : { query: z.input<S> }
  : { query?: never };

/** A JSON body typed by the route's schema, or (for routes that also take uploads) multipart form data. */
type BodyOption<R> = R extends { body: infer S extends z.ZodType }
  ? { body: z.input<S>; form?: never } | { body?: never; form: FormData }
  : { body?: never; form?: never };

/** Where a call of route `K` goes: its path parameters and query, typed by the contract. */
export type LocationOf<K extends RouteKey> = ParamsOption<ConsoleApi[K]> & QueryOption<ConsoleApi[K]>;

/** What a call of route `K` takes: its path parameters, query and body, each typed by the contract. */
export type RequestOf<K extends RouteKey> = LocationOf<K> & BodyOption<ConsoleApi[K]> & { signal?: AbortSignal };

/** The JSON answer of route `K`, as its handler's `reply` writes it. */
export type AnswerOf<K extends JsonRouteKey> = ConsoleApi[K]["response"] extends infer S extends z.ZodType
  ? z.output<S>
  : never;

type Args<K extends RouteKey> = object extends RequestOf<K> ? [request?: RequestOf<K>] : [request: RequestOf<K>];
type LocationArgs<K extends RouteKey> =
  object extends LocationOf<K> ? [location?: LocationOf<K>] : [location: LocationOf<K>];

/**
 * Where each route is. The compiler holds these to the route table's own method and path, so they cannot drift;
 * the browser gets the strings without the schemas (and zod) the table also carries.
 */
const routes: { readonly [K in RouteKey]: Pick<ConsoleApi[K], "method" | "path"> } = {
  health: { method: "GET", path: "/api/health" },
  openApi: { method: "GET", path: "/api/openapi.json" },
  consoleSettings: { method: "GET", path: "/api/settings" },
  login: { method: "POST", path: "/api/auth/login" },
  logout: { method: "POST", path: "/api/auth/logout" },
  me: { method: "GET", path: "/api/auth/me" },
  oidcStart: { method: "GET", path: "/api/auth/oidc/start" },
  oidcCallback: { method: "GET", path: "/api/auth/oidc/callback" },
  audit: { method: "GET", path: "/api/audit" },
  listEndpoints: { method: "GET", path: "/api/endpoints" },
  deploy: { method: "POST", path: "/api/endpoints" },
  describeEndpoint: { method: "GET", path: "/api/endpoints/[name]" },
  scaleEndpoint: { method: "PATCH", path: "/api/endpoints/[name]" },
  updateEndpoint: { method: "POST", path: "/api/endpoints/[name]/update" },
  abortUpdate: { method: "POST", path: "/api/endpoints/[name]/update/abort" },
  deleteEndpoint: { method: "DELETE", path: "/api/endpoints/[name]" },
  endpointMetrics: { method: "GET", path: "/api/endpoints/[name]/metrics" },
  endpointMonitoring: { method: "GET", path: "/api/endpoints/[name]/monitoring" },
  endpointThreshold: { method: "GET", path: "/api/endpoints/[name]/threshold" },
  setEndpointThreshold: { method: "PUT", path: "/api/endpoints/[name]/threshold" },
  startShadowTest: { method: "POST", path: "/api/endpoints/[name]/shadow" },
  endShadowTest: { method: "DELETE", path: "/api/endpoints/[name]/shadow" },
  shadowPromotionState: { method: "GET", path: "/api/endpoints/[name]/shadow" },
  promoteShadow: { method: "POST", path: "/api/endpoints/[name]/shadow/promote" },
  endpointDrift: { method: "GET", path: "/api/endpoints/[name]/drift" },
  setDrift: { method: "PUT", path: "/api/endpoints/[name]/drift" },
  reviewQueue: { method: "GET", path: "/api/endpoints/[name]/review" },
  labelDecision: { method: "POST", path: "/api/endpoints/[name]/review/labels" },
  exportReview: { method: "POST", path: "/api/endpoints/[name]/review/export" },
  recordGroundTruth: { method: "POST", path: "/api/endpoints/[name]/ground-truth" },
  importGroundTruth: { method: "POST", path: "/api/endpoints/[name]/ground-truth/import" },
  realisedQuality: { method: "GET", path: "/api/endpoints/[name]/realised" },
  chooseEvaluation: { method: "POST", path: "/api/endpoints/[name]/evaluation" },
  endpointLogs: { method: "GET", path: "/api/endpoints/[name]/logs" },
  endpointAlarms: { method: "GET", path: "/api/endpoints/[name]/alarms" },
  getAutoscaling: { method: "GET", path: "/api/endpoints/[name]/autoscaling" },
  putAutoscaling: { method: "PUT", path: "/api/endpoints/[name]/autoscaling" },
  deleteAutoscaling: { method: "DELETE", path: "/api/endpoints/[name]/autoscaling" },
  invoke: { method: "POST", path: "/api/endpoints/[name]/invoke" },
  invokeAsync: { method: "POST", path: "/api/endpoints/[name]/invoke-async" },
  asyncOutcome: { method: "GET", path: "/api/endpoints/[name]/invoke-async/[inferenceId]" },
  asyncRequests: { method: "GET", path: "/api/endpoints/[name]/async-requests" },
  invocations: { method: "GET", path: "/api/endpoints/[name]/invocations" },
  images: { method: "GET", path: "/api/images" },
  modelPresets: { method: "GET", path: "/api/model-presets" },
  listBuilds: { method: "GET", path: "/api/builds" },
  startBuild: { method: "POST", path: "/api/builds" },
  getBuild: { method: "GET", path: "/api/builds/[id]" },
  buildLogs: { method: "GET", path: "/api/builds/[id]/logs" },
  stopBuild: { method: "POST", path: "/api/builds/[id]/stop" },
  retryBuild: { method: "POST", path: "/api/builds/[id]/retry" },
  listDatasets: { method: "GET", path: "/api/datasets" },
  uploadDataset: { method: "POST", path: "/api/datasets" },
  getDataset: { method: "GET", path: "/api/datasets/[id]" },
  deleteDataset: { method: "DELETE", path: "/api/datasets/[id]" },
  listEvaluations: { method: "GET", path: "/api/evaluations" },
  startEvaluation: { method: "POST", path: "/api/evaluations" },
  getEvaluation: { method: "GET", path: "/api/evaluations/[id]" },
  deleteEvaluation: { method: "DELETE", path: "/api/evaluations/[id]" },
  cancelEvaluation: { method: "POST", path: "/api/evaluations/[id]/cancel" },
  retryFailedEvaluationItems: { method: "POST", path: "/api/evaluations/[id]/retry-failed" },
  exportEvaluation: { method: "GET", path: "/api/evaluations/[id]/export" },
  listTransformJobs: { method: "GET", path: "/api/batch" },
  startTransformJob: { method: "POST", path: "/api/batch" },
  describeTransformJob: { method: "GET", path: "/api/batch/[name]" },
  stopTransformJob: { method: "POST", path: "/api/batch/[name]/stop" },
  exportDataset: { method: "POST", path: "/api/datasets/[id]/export" },
  listModelGroups: { method: "GET", path: "/api/models" },
  registerModelVersion: { method: "POST", path: "/api/models" },
  getModelGroup: { method: "GET", path: "/api/models/[group]" },
  getModelVersion: { method: "GET", path: "/api/models/[group]/[version]" },
  attachModelEvaluation: { method: "POST", path: "/api/models/[group]/[version]/evaluation" },
  decideModelApproval: { method: "POST", path: "/api/models/[group]/[version]/approval" },
  listGatewayKeys: { method: "GET", path: "/api/gateway/keys" },
  createGatewayKey: { method: "POST", path: "/api/gateway/keys" },
  updateGatewayKey: { method: "PATCH", path: "/api/gateway/keys/[id]" },
  revokeGatewayKey: { method: "POST", path: "/api/gateway/keys/[id]/revoke" },
};

/** Routes whose 401 is an answer to show, not a reason to send the person to the sign-in page. */
const signInRoutes: ReadonlySet<RouteKey> = new Set(["login", "logout", "me"]);

/** The route's URL with its parameters filled in (each encoded) and its query, for links and downloads. */
export function apiUrl<K extends RouteKey>(key: K, ...[location]: LocationArgs<K>): string {
  const given = (location ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown> };
  const path = routes[key].path.replace(/\[([^\]]+)\]/g, (_, name: string) => {
    const value = given.params?.[name];
    if (value === undefined) throw new Error(`${key} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(given.query ?? {})) {
    if (value !== undefined && value !== null && value !== "") query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * Calls a route and answers its Response, or throws an ApiError that says what went wrong; a 401 outside sign-in
 * sends the person to the sign-in page.
 */
export async function apiResponse<K extends RouteKey>(key: K, ...[request]: Args<K>): Promise<Response> {
  const url = apiUrl(key, ...([request] as LocationArgs<K>));
  // Through unknown: `request ?? {}` would have the compiler expand every route's request type into one union.
  const given = (request as unknown as { body?: unknown; form?: FormData; signal?: AbortSignal } | undefined) ?? {};
  let response: Response;
  try {
    response = await fetch(url, {
      method: routes[key].method,
      headers: given.body === undefined ? undefined : { "content-type": "application/json" },
      body: given.form ?? (given.body === undefined ? undefined : JSON.stringify(given.body)),
      signal: given.signal,
      cache: "no-store",
    });
  } catch (cause) {
    if ((cause as Error).name === "AbortError") throw cause;
    throw new ApiError(0, "network", `The console server could not be reached (${(cause as Error).message}).`);
  }
  if (response.status === 401 && typeof window !== "undefined" && !signInRoutes.has(key)) {
    if (window.location.pathname !== "/login") {
      window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    }
  }
  if (!response.ok) throw errorFromResponse(response.status, url, jsonOrUndefined(await response.text()));
  return response;
}

/** Calls a JSON route and answers its body, typed by the route table. */
export async function api<K extends JsonRouteKey>(key: K, ...request: Args<K>): Promise<AnswerOf<K>> {
  const text = await (await apiResponse(key, ...request)).text();
  return jsonOrUndefined(text) as AnswerOf<K>;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
