import { forwardedHeadersTrusted } from "../http/forwarded.ts";
import type { Env } from "./env.ts";
import { isTls } from "./session.ts";

/**
 * The origins a browser page of this console has: `CONSOLE_PUBLIC_ORIGIN` (comma-separated) when the console
 * sits behind a proxy that rewrites the host, else the scheme and host the request arrived with (the
 * `X-Forwarded-Host` of a trusted proxy, else `Host`).
 */
export function expectedOrigins(request: Request, env: Env = process.env): string[] {
  if (env.CONSOLE_PUBLIC_ORIGIN) {
    return env.CONSOLE_PUBLIC_ORIGIN.split(",").map((origin) => origin.trim().replace(/\/$/, ""));
  }
  const forwardedHost = forwardedHeadersTrusted(request, env) ? request.headers.get("x-forwarded-host") : null;
  const host = forwardedHost ?? request.headers.get("host") ?? new URL(request.url).host;
  return [`${isTls(request, env) ? "https" : "http"}://${host}`];
}

/**
 * Why a mutating request is refused as cross-site, or null when it is allowed. Browsers send `Sec-Fetch-Site`
 * and `Origin` with every POST/PUT/PATCH/DELETE; a request with neither comes from a non-browser client
 * (curl, the SDK), which a forged cross-site page cannot be.
 */
export function crossOriginReason(request: Request, env: Env = process.env): string | null {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") return `the browser marked it as ${site} (Sec-Fetch-Site)`;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const allowed = expectedOrigins(request, env);
  if (!allowed.includes(origin)) return `its Origin ${origin} is not this console's (${allowed.join(", ")})`;
  return null;
}
