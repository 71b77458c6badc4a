import type { NextConfig } from "next";
import { securityHeaders } from "./server/auth/security-headers.ts";
import { consoleConfig } from "./server/config.ts";

const settings = consoleConfig();

const config: NextConfig = {
  reactStrictMode: true,
  // Browser tests and the performance script build into their own folder so they never serve a half-rebuilt .next.
  distDir: settings.NEXT_DIST_DIR,
  // The console image's build (infra/docker/Dockerfile.console) asks for a server that runs without this checkout.
  output: settings.NEXT_OUTPUT,
  // `npm test` type-checks the whole tree before the browser tests; their build need not do it again.
  typescript: { ignoreBuildErrors: settings.NEXT_SKIP_TYPECHECK === "1" },
  poweredByHeader: false,
  // Native addons and the model runtime stay outside the server bundle.
  serverExternalPackages: ["node-llama-cpp", "better-sqlite3", "@node-rs/argon2"],
  // No page uses next/image, so the standalone server (NEXT_OUTPUT) leaves out sharp and its libvips binaries.
  outputFileTracingExcludes: { "*": ["**/node_modules/sharp/**/*", "**/node_modules/@img/**/*"] },
  transpilePackages: ["@decision-console/adapter"],
  // proxy.ts makes Next buffer every request body, cut short above this size (default 10 MB): it must cover the
  // largest body a route accepts (dataset uploads: 20 MiB).
  experimental: { proxyClientMaxBodySize: "21mb" },
  headers: async () => [{ source: "/:path*", headers: securityHeaders(settings.NODE_ENV === "production") }],
};

export default config;
