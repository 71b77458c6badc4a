import type { Access } from "./roles.ts";

export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

interface RouteRule {
  /** A route in the app directory's own notation: `/api/endpoints/[name]`. */
  pattern: string;
  methods: Partial<Record<Method, Access>>;
}

/**
 * Who may call which API route. Every route handler under `app/api` must have its pattern and methods here:
 * `tests/security/route-policy.test.ts` walks the file system and fails on a route this table misses.
 * Viewers use endpoints, the playground and evaluations; everything that creates, changes or deletes
 * infrastructure, or starts paid capacity, needs an operator. Where the body decides that (an evaluation in a batch
 * transform job), the handler asks for the operator role itself (`requireRoleFor`).
 */
export const apiPolicy: readonly RouteRule[] = [
  { pattern: "/api/health", methods: { GET: "anonymous" } },
  { pattern: "/api/settings", methods: { GET: "viewer" } },
  { pattern: "/api/openapi.json", methods: { GET: "anonymous" } },
  { pattern: "/api/auth/login", methods: { POST: "anonymous" } },
  { pattern: "/api/auth/logout", methods: { POST: "anonymous" } },
  { pattern: "/api/auth/me", methods: { GET: "anonymous" } },
  { pattern: "/api/auth/oidc/start", methods: { GET: "anonymous" } },
  { pattern: "/api/auth/oidc/callback", methods: { GET: "anonymous" } },
  { pattern: "/api/audit", methods: { GET: "operator" } },
  { pattern: "/api/endpoints", methods: { GET: "viewer", POST: "operator" } },
  { pattern: "/api/endpoints/[name]", methods: { GET: "viewer", PATCH: "operator", DELETE: "operator" } },
  { pattern: "/api/endpoints/[name]/metrics", methods: { GET: "viewer" } },
  { pattern: "/api/endpoints/[name]/monitoring", methods: { GET: "viewer" } },
  // Labelling production decisions is evaluation work (viewers upload datasets and run evaluations too).
  { pattern: "/api/endpoints/[name]/review", methods: { GET: "viewer" } },
  { pattern: "/api/endpoints/[name]/review/labels", methods: { POST: "viewer" } },
  { pattern: "/api/endpoints/[name]/review/export", methods: { POST: "viewer" } },
  // Ground truth learnt later is labelling too; realised quality is read as Monitoring is.
  { pattern: "/api/endpoints/[name]/ground-truth", methods: { POST: "viewer" } },
  { pattern: "/api/endpoints/[name]/ground-truth/import", methods: { POST: "viewer" } },
  { pattern: "/api/endpoints/[name]/realised", methods: { GET: "viewer" } },
  // What production is judged against is an operator's call, as the drift baseline is.
  { pattern: "/api/endpoints/[name]/evaluation", methods: { POST: "operator" } },
  { pattern: "/api/endpoints/[name]/shadow", methods: { GET: "viewer", POST: "operator", DELETE: "operator" } },
  { pattern: "/api/endpoints/[name]/shadow/promote", methods: { POST: "operator" } },
  { pattern: "/api/endpoints/[name]/drift", methods: { GET: "viewer", PUT: "operator" } },
  { pattern: "/api/endpoints/[name]/threshold", methods: { GET: "viewer", PUT: "operator" } },
  { pattern: "/api/endpoints/[name]/logs", methods: { GET: "viewer" } },
  { pattern: "/api/endpoints/[name]/alarms", methods: { GET: "viewer" } },
  { pattern: "/api/endpoints/[name]/update", methods: { POST: "operator" } },
  { pattern: "/api/endpoints/[name]/update/abort", methods: { POST: "operator" } },
  { pattern: "/api/endpoints/[name]/autoscaling", methods: { GET: "viewer", PUT: "operator", DELETE: "operator" } },
  { pattern: "/api/endpoints/[name]/invoke", methods: { POST: "viewer" } },
  { pattern: "/api/endpoints/[name]/invoke-async", methods: { POST: "viewer" } },
  { pattern: "/api/endpoints/[name]/invoke-async/[inferenceId]", methods: { GET: "viewer" } },
  { pattern: "/api/endpoints/[name]/invocations", methods: { GET: "viewer" } },
  { pattern: "/api/endpoints/[name]/async-requests", methods: { GET: "viewer" } },
  { pattern: "/api/images", methods: { GET: "viewer" } },
  { pattern: "/api/model-presets", methods: { GET: "viewer" } },
  { pattern: "/api/builds", methods: { GET: "viewer", POST: "operator" } },
  { pattern: "/api/builds/[id]", methods: { GET: "viewer" } },
  { pattern: "/api/builds/[id]/logs", methods: { GET: "viewer" } },
  { pattern: "/api/builds/[id]/stop", methods: { POST: "operator" } },
  { pattern: "/api/builds/[id]/retry", methods: { POST: "operator" } },
  { pattern: "/api/batch", methods: { GET: "viewer", POST: "operator" } },
  { pattern: "/api/batch/[name]", methods: { GET: "viewer" } },
  { pattern: "/api/batch/[name]/stop", methods: { POST: "operator" } },
  { pattern: "/api/datasets/[id]/export", methods: { POST: "operator" } },
  { pattern: "/api/datasets", methods: { GET: "viewer", POST: "viewer" } },
  { pattern: "/api/datasets/[id]", methods: { GET: "viewer", DELETE: "operator" } },
  { pattern: "/api/evaluations", methods: { GET: "viewer", POST: "viewer" } },
  { pattern: "/api/evaluations/[id]", methods: { GET: "viewer", DELETE: "operator" } },
  { pattern: "/api/evaluations/[id]/cancel", methods: { POST: "viewer" } },
  { pattern: "/api/evaluations/[id]/retry-failed", methods: { POST: "viewer" } },
  { pattern: "/api/evaluations/[id]/export", methods: { GET: "viewer" } },
  { pattern: "/api/models", methods: { GET: "viewer", POST: "operator" } },
  { pattern: "/api/models/[group]", methods: { GET: "viewer" } },
  { pattern: "/api/models/[group]/[version]", methods: { GET: "viewer" } },
  { pattern: "/api/models/[group]/[version]/evaluation", methods: { POST: "operator" } },
  { pattern: "/api/models/[group]/[version]/approval", methods: { POST: "operator" } },
  // Viewers see the gateway's keys and their usage (never a secret); creating, changing and revoking is for operators.
  { pattern: "/api/gateway/keys", methods: { GET: "viewer", POST: "operator" } },
  { pattern: "/api/gateway/keys/[id]", methods: { PATCH: "operator" } },
  { pattern: "/api/gateway/keys/[id]/revoke", methods: { POST: "operator" } },
];

/** Pages: the login page is open, the audit log is for operators, every other page needs a signed-in viewer. */
const pagePolicy: readonly { prefix: string; access: Access }[] = [
  { prefix: "/login", access: "anonymous" },
  { prefix: "/audit", access: "operator" },
];

/**
 * The decision gateway's routes (app/v1, docs/gateway.md): applications call them with an API key, which their
 * handlers check themselves. They read no cookie and carry no session, so neither sign-in nor the cross-site check
 * applies to them.
 */
const gatewayPaths = new Set(["/v1/systemone", "/v1/decisions", "/v1/models"]);

export function isGatewayPath(pathname: string): boolean {
  return gatewayPaths.has(pathname);
}

export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

export function matchesPattern(pattern: string, pathname: string): boolean {
  const want = pattern.split("/").filter(Boolean);
  const got = pathname.split("/").filter(Boolean);
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment.startsWith("[[...")) return true;
    if (segment.startsWith("[...")) return got.length > i;
    if (got[i] === undefined) return false;
    if (segment.startsWith("[")) continue;
    if (segment !== got[i]) return false;
  }
  return got.length === want.length;
}

export function findApiRule(pathname: string): RouteRule | undefined {
  const matching = apiPolicy.filter((rule) => matchesPattern(rule.pattern, pathname));
  // A literal segment beats a parameter (`/api/builds/new` over `/api/builds/[id]`): fewer brackets win.
  return matching.sort((a, b) => brackets(a.pattern) - brackets(b.pattern))[0];
}

function brackets(pattern: string): number {
  return pattern.split("[").length;
}

/**
 * The access a request needs. An API route or method missing from the table needs an operator: a route
 * someone forgot to list is closed, not open. HEAD and OPTIONS follow GET.
 */
export function requiredAccess(pathname: string, method: string): Access {
  if (!isApiPath(pathname)) {
    return (
      pagePolicy.find((rule) => pathname === rule.prefix || pathname.startsWith(`${rule.prefix}/`))?.access ?? "viewer"
    );
  }
  const rule = findApiRule(pathname);
  if (!rule) return "operator";
  const verb = (method === "HEAD" || method === "OPTIONS" ? "GET" : method.toUpperCase()) as Method;
  return rule.methods[verb] ?? "operator";
}

export function isMutating(method: string): boolean {
  return !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
}
