import type { NextConfig } from "next";

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native addons and the model runtime stay outside the server bundle.
  serverExternalPackages: ["node-llama-cpp", "better-sqlite3", "@node-rs/argon2"],
  transpilePackages: ["@decision-console/adapter"],
};

export default config;
