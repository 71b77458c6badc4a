import type { Principal } from "../../contract/auth/session.ts";
import { type RefusalLog, refusalLog, refusalOf } from "../audit/refusals.ts";
import { AppError } from "../http/app-error.ts";
import type { ForwardingSettings } from "../http/forwarded.ts";
import { errorResponse, rateLimitedResponse } from "../http/route.ts";
import { managedScope, pathReference, unmanagedReference } from "./managed-names.ts";
import { isApiPath, isGatewayPath, isMutating, matchesPattern, requiredAccess } from "./policy.ts";
import { type AuthContext, defaultAuthContext, principalOf } from "./principal.ts";
import { playgroundMaxBodyBytes, playgroundRateLimiter, type RateLimiter } from "./rate-limit.ts";
import { grants } from "./roles.ts";
import { crossOriginReason, expectedOrigins } from "./same-origin.ts";

export interface GateOptions {
  context?: AuthContext;
  invokeLimiter?: RateLimiter;
  /** Where the 403s are written (the audit log, rate-limited); default: the process's. */
  refusals?: RefusalLog;
}

const invokePattern = "/api/endpoints/[name]/invoke";

/**
 * The console's front door, run by `proxy.ts` before every page and API route: refuses paths that are not valid
 * percent-encoding (400; Next.js would fail decoding a route parameter with a 500), cross-site mutations, then
 * unauthenticated (401, or a redirect to /login for pages) and under-privileged (403) callers, then a path that
 * names a resource outside the console's scope (403, managed-names.ts), then playground requests over the body
 * limit (413) or the caller's rate (429). The decision gateway's routes pass on to their handlers, which check the
 * caller's API key. Null means: let it through. Each 403 is written to the audit log
 * (`request.refuse`, a bounded number per caller and in all).
 */
export async function gate(request: Request, options: GateOptions = {}): Promise<Response | null> {
  const url = new URL(request.url);
  const { pathname } = url;
  const api = isApiPath(pathname);
  if (!isDecodable(pathname)) {
    const message = `The path ${pathname} is not valid percent-encoding (a % must start a %XX byte of UTF-8).`;
    return api ? refuse(new AppError("bad_request", message)) : errorPage(400, "Bad request", message);
  }
  // Before the console's settings and store are looked up: a decision's key is the handler's to check.
  if (isGatewayPath(pathname)) return null;

  const method = request.method.toUpperCase();
  const context = options.context ?? defaultAuthContext();
  const forbidden = async (principal: Principal | null, message: string, response: Response) => {
    const refusal = refusalOf(request, context.config, principal?.name ?? null, 403, message);
    await (options.refusals ?? refusalLog()).record(context.store, refusal);
    return response;
  };

  if (isMutating(method)) {
    const reason = crossOriginReason(request, context.config);
    if (reason) {
      const refused = new AppError("forbidden", `Cross-site request refused: ${reason}.`);
      return forbidden(await principalOf(request, context), refused.message, refuse(refused));
    }
  }

  const access = requiredAccess(pathname, method);
  if (access === "anonymous") return null;

  const principal = await principalOf(request, context);
  if (!principal) {
    if (!api) return redirectToLogin(url, request, context.config);
    return refuse(
      new AppError("unauthenticated", `Sign in to use ${method} ${pathname}: it needs the ${access} role.`),
    );
  }
  if (!grants(principal.role, access)) {
    const message = `${method} ${pathname} needs the ${access} role; you are signed in as ${principal.name} (${principal.role}).`;
    return forbidden(
      principal,
      message,
      api ? refuse(new AppError("forbidden", message)) : errorPage(403, "Not allowed", message),
    );
  }

  const named = api ? pathReference(pathname) : null;
  const unmanaged = named ? unmanagedReference([named], managedScope(context.config)) : null;
  if (unmanaged) return forbidden(principal, unmanaged.message, refuse(unmanaged));

  if (method === "POST" && matchesPattern(invokePattern, pathname)) {
    return playgroundLimits(request, principal, options.invokeLimiter ?? playgroundRateLimiter(context.config));
  }
  return null;
}

function playgroundLimits(request: Request, principal: Principal, limiter: RateLimiter): Response | null {
  const length = request.headers.get("content-length");
  if (length === null) {
    return refuse(new AppError("bad_request", "Send the playground request with a Content-Length header."));
  }
  if (Number(length) > playgroundMaxBodyBytes) {
    return refuse(
      new AppError(
        "payload_too_large",
        `The request body is ${length} bytes; endpoints accept at most ${playgroundMaxBodyBytes}.`,
      ),
    );
  }
  const taken = limiter.take(principal.name);
  if (taken.allowed) return null;
  return rateLimitedResponse(
    `Too many playground requests from ${principal.name}; retry in ${taken.retryAfterSeconds} s.`,
    taken.retryAfterSeconds,
  );
}

function refuse(error: AppError): Response {
  return errorResponse(error);
}

/**
 * Next.js wants an absolute Location from a proxy. It is built from the Host the browser used (or
 * CONSOLE_PUBLIC_ORIGIN), not from the proxy's normalised URL, which may say `localhost` for `127.0.0.1`: the
 * session cookie is per host, so the login page must stay on the host the browser is on.
 */
function redirectToLogin(url: URL, request: Request, settings: ForwardingSettings): Response {
  const login = new URL("/login", expectedOrigins(request, settings)[0]);
  login.searchParams.set("next", `${url.pathname}${url.search}`);
  return new Response(null, { status: 307, headers: { location: login.toString() } });
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function errorPage(status: number, title: string, message: string): Response {
  const escaped = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return new Response(
    `<!doctype html><html lang="en"><title>${title}</title><main><h1>${title}</h1><p>${escaped}</p><p><a href="/">Back to the console</a></p></main></html>`,
    { status, headers: { "content-type": "text/html; charset=utf-8" } },
  );
}
