import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "@/server/auth/security-headers.ts";

describe("security headers", () => {
  it("production CSP has no unsafe-eval, forbids framing, plugins and foreign form targets", () => {
    const csp = contentSecurityPolicy(true);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("default-src 'self'");
  });

  it("development adds unsafe-eval, which React's dev tooling needs", () => {
    expect(contentSecurityPolicy(false)).toContain("'unsafe-eval'");
  });

  it("sends nosniff, DENY framing and a referrer policy", () => {
    const headers = Object.fromEntries(securityHeaders(true).map((h) => [h.key, h.value]));
    expect(headers).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "same-origin",
    });
  });
});
