import { type ForwardingSettings, forwardedHeadersTrusted } from "../http/forwarded.ts";
import { isTls } from "./session.ts";

/**
 * The origins a browser page of this console has: `CONSOLE_PUBLIC_ORIGIN` (comma-separated) when the console
 * sits behind a proxy that rewrites the host, else the scheme and host the request arrived with (the
 * `X-Forwarded-Host` of a trusted proxy, else `Host`).
 */
export function expectedOrigins(request: Request, settings: ForwardingSettings): string[] {
  if (settings.CONSOLE_PUBLIC_ORIGIN) {
    return settings.CONSOLE_PUBLIC_ORIGIN.split(",").map((origin) => origin.trim().replace(/\/$/, ""));
  }
  const forwardedHost = forwardedHeadersTrusted(request, settings) ? request.headers.get("x-forwarded-host") : null;
  const host = forwardedHost ?? request.headers.get("host") ?? new URL(request.url).host;
  return [`${isTls(request, settings) ? "https" : "http"}://${host}`];
}

/**
 * Why a mutating request is refused as cross-site, or null when it is allowed. Browsers send `Sec-Fetch-Site`
 * and `Origin` with every POST/PUT/PATCH/DELETE; a request with neither comes from a non-browser client
 * (curl, the SDK), which a forged cross-site page cannot be.
 */
export function crossOriginReason(request: Request, settings: ForwardingSettings): string | null {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") return `the browser marked it as ${site} (Sec-Fetch-Site)`;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const allowed = expectedOrigins(request, settings);
  if (!allowed.includes(origin)) return `its Origin ${origin} is not this console's (${allowed.join(", ")})`;
  return null;
}
