import { describe, expect, it } from "vitest";
import { isIgnored, parseDockerignore } from "./docker-context.ts";

/** The .dockerignore reading the image tests lay their build contexts out with, against Docker's documented rules. */
describe(".dockerignore patterns", () => {
  const patterns = parseDockerignore(
    ["# a comment", "**", "!app/**", "!package.json", "!/infra/docker/", "**/*.test.ts", "**/.env*"].join("\n"),
  );

  it("lets the last matching pattern decide: ** leaves everything out, ! lets a path back in", () => {
    expect(isIgnored(patterns, "README.md")).toBe(true);
    expect(isIgnored(patterns, "package.json")).toBe(false);
    expect(isIgnored(patterns, "app/api/health/route.ts")).toBe(false);
    expect(isIgnored(patterns, "app/api/health/route.test.ts")).toBe(true);
    expect(isIgnored(patterns, "app/.env.local")).toBe(true);
  });

  it("matches a folder's pattern for every file below it, leading and trailing slashes aside", () => {
    expect(isIgnored(patterns, "infra/docker/Dockerfile.cpu")).toBe(false);
    expect(isIgnored(parseDockerignore("node_modules"), "node_modules/next/package.json")).toBe(true);
    expect(isIgnored(parseDockerignore("node_modules"), "app/node_modules/x.js")).toBe(false);
    expect(isIgnored(parseDockerignore("**/node_modules"), "app/node_modules/x.js")).toBe(true);
  });

  it("keeps * and ? within one folder and ** across folders", () => {
    expect(isIgnored(parseDockerignore("app/*.ts"), "app/page.ts")).toBe(true);
    expect(isIgnored(parseDockerignore("app/*.ts"), "app/api/route.ts")).toBe(false);
    expect(isIgnored(parseDockerignore("app/**/*.ts"), "app/api/route.ts")).toBe(true);
    expect(isIgnored(parseDockerignore("app/**/*.ts"), "app/page.ts")).toBe(true);
    expect(isIgnored(parseDockerignore("v?.txt"), "v1.txt")).toBe(true);
    expect(isIgnored(parseDockerignore("v?.txt"), "v10.txt")).toBe(false);
  });
});
