import type { ApiRoute } from "../../contract/api.ts";
import { type ErrorCode, errorStatus } from "../../contract/http/error-body.ts";
import { requiredAccess } from "../auth/policy.ts";

/**
 * Routes that answer from the console's own store or configuration, with no AWS call; every other route may also
 * answer what an AWS error becomes (server/aws/errors.ts, `toAwsAppError`).
 */
const withoutAws: ReadonlySet<string> = new Set([
  "/api/health",
  "/api/settings",
  "/api/openapi.json",
  "/api/auth/login",
  "/api/auth/logout",
  "/api/auth/me",
  "/api/auth/oidc/start",
  "/api/auth/oidc/callback",
  "/api/audit",
  "/api/model-presets",
  "/api/datasets",
  "/api/datasets/[id]",
  "/api/evaluations/[id]",
  "/api/evaluations/[id]/cancel",
  "/api/evaluations/[id]/export",
  "/api/endpoints/[name]/invocations",
]);

/** What an AWS error becomes: its ValidationException, AccessDenied, ResourceNotFound, conflict, throttling, outage. */
const awsErrors: readonly ErrorCode[] = [
  "bad_request",
  "forbidden",
  "not_found",
  "conflict",
  "rate_limited",
  "upstream",
  "unavailable",
  "upstream_timeout",
];

/** What a route's own rules refuse, beyond what its shape implies (`contract/api.ts` notes them in prose). */
const ownErrors: Partial<Record<string, readonly ErrorCode[]>> = {
  "POST /api/auth/login": ["unauthenticated", "conflict", "rate_limited"],
  "GET /api/auth/oidc/start": ["not_found"],
  "GET /api/auth/oidc/callback": ["bad_request", "unauthenticated", "not_found"],
  "GET /api/evaluations/[id]": ["not_found"],
  "DELETE /api/evaluations/[id]": ["conflict"],
  "POST /api/evaluations/[id]/cancel": ["conflict"],
  "DELETE /api/datasets/[id]": ["conflict"],
  // The playground's body limit and rate (server/auth/gate.ts), and the container's own status, passed on.
  "POST /api/endpoints/[name]/invoke": Object.keys(errorStatus) as ErrorCode[],
};

/**
 * The error codes a route can answer with, each at its status (contract/http/error-body.ts): from its access rule
 * (401 signed out, 403 too little role), the same-origin rule for unsafe methods (403), its path parameters (400 a
 * malformed one, 403 a name outside the console's prefix, 404 none such), its query and body (400, 413, 415), the
 * AWS calls it makes, its own rules, and 500 for a defect (logged).
 */
export function routeErrors(route: ApiRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(["internal"]);
  const add = (...more: readonly ErrorCode[]) => {
    for (const code of more) codes.add(code);
  };
  if (requiredAccess(route.path, route.method) !== "anonymous") add("unauthenticated", "forbidden");
  if (route.method !== "GET") add("forbidden");
  if (route.path.includes("[")) add("bad_request", "forbidden", "not_found");
  if (route.query) add("bad_request");
  if (route.body) add("bad_request", "payload_too_large", "unsupported_media_type");
  if (!withoutAws.has(route.path)) add(...awsErrors);
  add(...(ownErrors[`${route.method} ${route.path}`] ?? []));
  return [...codes].sort((a, b) => errorStatus[a] - errorStatus[b]);
}
