import { afterAll, describe, expect, it } from "vitest";
import { lintScratch } from "./lint-scratch.ts";

/** Each arrow of the README's Layout section, as biome.json's noRestrictedImports overrides enforce it. */
const scratch = lintScratch();
afterAll(() => scratch.remove());

const importing = (specifier: string) => `import { a } from "${specifier}";\n\nexport const b = a;\n`;

function refused(file: string, specifier: string, message: string) {
  const { status, output } = scratch.lint(file, importing(specifier));
  expect(status, `${file} importing ${specifier}: ${output}`).not.toBe(0);
  expect(output).toContain("lint/style/noRestrictedImports");
  expect(output).toContain(message);
}

function allowed(file: string, specifier: string) {
  const { status, output } = scratch.lint(file, importing(specifier));
  expect(status, `${file} importing ${specifier}: ${output}`).toBe(0);
}

describe("the arrows between the parts fail lint when crossed", () => {
  it.each([
    ["server/builds/x.ts", "../../infra/cdk/stack-policies.ts"],
    ["server/x.ts", "../infra/cdk/arns.ts"],
    ["server/evaluate/runs/x.ts", "@/infra/packager/packager-env.ts"],
  ])("server/ does not import infra/: %s <- %s", (file, specifier) =>
    refused(file, specifier, "server/ must not import infra/"),
  );

  it.each([
    ["infra/cdk/x.ts", "../../server/builds/build-view.ts"],
    ["infra/buildspecs/x.ts", "@/server/store/database.ts"],
  ])("infra/ does not import the console's server/: %s <- %s", (file, specifier) =>
    refused(file, specifier, "infra/ must not import the console's server/"),
  );

  it.each([
    ["contract/x.ts", "../server/config.ts"],
    ["contract/endpoints/x.ts", "../../infra/cdk/arns.ts"],
    ["contract/evaluate/x.ts", "@/components/ui/button.tsx"],
  ])("contract/ imports only zod and the adapter's contract: %s <- %s", (file, specifier) =>
    refused(file, specifier, "contract/ imports only zod"),
  );

  it.each([
    ["adapter/test/x.ts", "../../server/evaluate/metrics/calibration.ts"],
    ["adapter/test/x.ts", "../../contract/api.ts"],
    ["adapter/test/support/x.ts", "../../../contract/api.ts"],
    ["adapter/src/x.ts", "../../contract/api.ts"],
    ["adapter/src/engine/x.ts", "../../../contract/api.ts"],
    ["adapter/src/http/routes/x.ts", "../../../../contract/api.ts"],
    ["adapter/src/engine/x.ts", "@/contract/api.ts"],
    ["adapter/bench/x.ts", "../../infra/cdk/arns.ts"],
  ])("adapter/ imports nothing of the console: %s <- %s", (file, specifier) =>
    refused(file, specifier, "adapter/ knows nothing of the console"),
  );

  it.each([
    ["local-aws/src/services/x.ts", "../../../server/endpoints/deploy.ts"],
    ["local-aws/src/services/x.ts", "../../../contract/endpoints/deployment-plan.ts"],
    ["local-aws/src/x.ts", "../../server/endpoints/list.ts"],
    ["local-aws/src/x.ts", "../../components/ui/button.tsx"],
    ["local-aws/src/endpoints/x.test.ts", "../../../server/invoke/invoke.ts"],
    ["local-aws/src/iam/requests/x.ts", "../../../../contract/api.ts"],
    ["local-aws/src/services/x.ts", "@/server/endpoints/list.ts"],
    ["local-aws/src/builds/x.ts", "../../../infra/packager/packager-env.ts"],
    ["local-aws/src/x.ts", "../../server/store/database.ts"],
    ["local-aws/src/services/x.ts", "../../../contract/stack/console-contract.ts"],
    ["local-aws/src/endpoints/x.ts", "../../../adapter/src/engine/engine.ts"],
    ["local-aws/src/llama/x.ts", "@decision-console/adapter/contract"],
    ["local-aws/src/x.ts", "../../scripts/models/pins.ts"],
    ["local-aws/src/iam/x.ts", "../../../infra/cdk/stack-policies.ts"],
  ])("the emulator (local-aws/) imports nothing of the console: %s <- %s", (file, specifier) =>
    refused(file, specifier, "local-aws/ (the emulator) imports nothing of the console"),
  );

  it.each([
    ["server/aws/x.ts", "../../local-aws/src/control-plane.ts"],
    ["tests/integration/x.ts", "../../local-aws/src/stack.ts"],
    ["scripts/x.ts", "../local-aws/src/test-support/processes.ts"],
    ["infra/cdk/x.ts", "../../local-aws/src/stack-fixture.ts"],
  ])("everything else reaches the emulator through its package: %s <- %s", (file, specifier) =>
    refused(file, specifier, "Reach the emulator through its package"),
  );

  it("lets each part import what its arrows name", () => {
    allowed("server/builds/x.ts", "../../contract/stack/console-contract.ts");
    allowed("server/x.ts", "../adapter/src/contract/decision.ts");
    allowed("contract/x.ts", "../adapter/src/contract/decision.ts");
    allowed("contract/endpoints/x.ts", "../stack/console-contract.ts");
    allowed("infra/cdk/x.ts", "../../contract/stack/llama-cpp-dlc.ts");
    allowed("adapter/src/engine/x.ts", "../contract/common.ts");
    allowed("adapter/src/http/routes/x.ts", "../../contract/chat.ts");
    allowed("adapter/test/x.ts", "../src/contract/softmax.ts");
    allowed("tests/integration/x.ts", "../../server/evaluate/metrics/calibration.ts");
    allowed("local-aws/src/services/x.ts", "../wire/aws-error.ts");
    allowed("local-aws/src/iam/requests/x.ts", "../../wire/aws-error.ts");
    allowed("server/aws/x.ts", "@decision-console/local-aws/testing");
    allowed("infra/cdk/x.ts", "@decision-console/local-aws");
  });
});
