import { describe, expect, it } from "vitest";
import { ConsoleConfigError, readConsoleConfig } from "./config.ts";

function problemsOf(env: Record<string, string>): string {
  try {
    readConsoleConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConsoleConfigError);
    return (error as Error).message;
  }
  throw new Error("the settings were accepted");
}

describe("the console's settings", () => {
  it("have their defaults when nothing is set, and an empty variable is an unset one", () => {
    const config = readConsoleConfig({ CONSOLE_INVOKE_BURST: "", PORT: " " });
    expect(config).toMatchObject({
      CONSOLE_MODE: "aws",
      CONSOLE_INVOKE_BURST: 20,
      CONSOLE_INVOKE_PER_MINUTE: 120,
      CONSOLE_DATA_DIR: ".console-data",
      CONSOLE_OIDC_ROLE_CLAIM: "cognito:groups",
      HOST: "127.0.0.1",
      PORT: 3000,
    });
    expect(readConsoleConfig({ CONSOLE_INVOKE_PER_MINUTE: "30", PORT: "0" })).toMatchObject({
      CONSOLE_INVOKE_PER_MINUTE: 30,
      PORT: 0,
    });
  });

  it("a value that is not a number is refused by name, with the value and what was expected", () => {
    const message = problemsOf({ CONSOLE_INVOKE_PER_MINUTE: "abc" });
    expect(message).toContain(
      'CONSOLE_INVOKE_PER_MINUTE: must be a number (playground requests per minute per user) (it is "abc")',
    );
  });

  it("every bad value is named at once, and a secret's value is never echoed", () => {
    const message = problemsOf({
      CONSOLE_INVOKE_BURST: "0",
      CONSOLE_MODE: "cloud",
      PORT: "70000",
      CONSOLE_SESSION_SECRET: "too-short-secret",
      CONSOLE_TRUSTED_PROXIES: "10.0.0.0/8, proxy.internal",
      CONSOLE_PUBLIC_ORIGIN: "https://console.example.com/app",
      CONSOLE_USERS: '[{"name":"x","role":"admin","password":"hunter2-hunter2"}]',
      AWS_ENDPOINT_URL: "localhost:4599",
      SAGEMAKER_EXECUTION_ROLE_ARN: "my-role",
    });
    for (const name of [
      "CONSOLE_INVOKE_BURST",
      "CONSOLE_MODE",
      "PORT",
      "CONSOLE_SESSION_SECRET",
      "CONSOLE_TRUSTED_PROXIES",
      "CONSOLE_PUBLIC_ORIGIN",
      "CONSOLE_USERS",
      "AWS_ENDPOINT_URL",
      "SAGEMAKER_EXECUTION_ROLE_ARN",
    ]) {
      expect(message).toMatch(new RegExp(`^  ${name}: `, "m"));
    }
    expect(message).toContain('"proxy.internal" is not an IP address or CIDR range');
    expect(message).toContain("CONSOLE_USERS: is invalid at 0.role");
    expect(message).not.toContain("too-short-secret");
    expect(message).not.toContain("hunter2");
  });

  it("single sign-on with an issuer but no client id or callback address is refused, naming both", () => {
    const message = problemsOf({ CONSOLE_OIDC_ISSUER: "https://issuer.example" });
    expect(message).toContain("CONSOLE_OIDC_CLIENT_ID: must be set when CONSOLE_OIDC_ISSUER is");
    expect(message).toContain("CONSOLE_OIDC_REDIRECT_URI: must be set when CONSOLE_OIDC_ISSUER is");
  });
});
