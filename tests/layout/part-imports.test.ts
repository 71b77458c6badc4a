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
    ["server/local/services/x.ts", "../../endpoints/deploy.ts"],
    ["server/local/services/x.ts", "../../../contract/endpoints/deployment-plan.ts"],
    ["server/local/x.ts", "../endpoints/list.ts"],
    ["server/local/x.ts", "../../components/ui/button.tsx"],
    ["server/local/endpoints/x.test.ts", "../../invoke/invoke.ts"],
    ["server/local/iam/requests/x.ts", "../../../../contract/api.ts"],
    ["server/local/services/x.ts", "@/server/endpoints/list.ts"],
    ["server/local/builds/x.ts", "../../../infra/packager/packager-env.ts"],
    ["server/local/x.ts", "../store/database.ts"],
    ["server/local/services/x.ts", "../../../contract/stack/console-contract.ts"],
    ["server/local/endpoints/x.ts", "../../../adapter/src/engine/engine.ts"],
    ["server/local/llama/x.ts", "@/adapter/src/http/route.ts"],
    ["server/local/x.ts", "../../scripts/models/pins.ts"],
    ["server/local/iam/x.ts", "../../../infra/cdk/stack-policies.ts"],
  ])("the emulator (server/local/) imports nothing of the console: %s <- %s", (file, specifier) =>
    refused(file, specifier, "server/local/ (the emulator) imports nothing of the console"),
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
    allowed("server/local/services/x.ts", "../wire/aws-error.ts");
    allowed("server/local/iam/requests/x.ts", "../../../local/wire/aws-error.ts");
  });
});
