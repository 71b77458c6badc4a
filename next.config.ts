import type { NextConfig } from "next";
import { securityHeaders } from "./server/auth/security-headers.ts";

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native addons and the model runtime stay outside the server bundle.
  serverExternalPackages: ["node-llama-cpp", "better-sqlite3", "@node-rs/argon2"],
  transpilePackages: ["@decision-console/adapter"],
  headers: async () => [{ source: "/:path*", headers: securityHeaders() }],
};

export default config;
