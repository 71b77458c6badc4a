import { type NextRequest, NextResponse } from "next/server";
import { gate } from "./server/auth/gate.ts";
import { isTls } from "./server/auth/session.ts";
import { consoleConfig } from "./server/config.ts";

/** Next.js 16's request proxy (formerly middleware): every page and API route passes the auth gate first. */
export async function proxy(request: NextRequest): Promise<Response> {
  const refused = await gate(request);
  const response = refused ?? NextResponse.next();
  // HSTS only over TLS: browsers ignore it on plain HTTP, and loopback local mode has no certificate to pin.
  if (isTls(request, consoleConfig()))
    response.headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
