import { afterAll, describe, expect, it } from "vitest";
import { lintScratch } from "./lint-scratch.ts";

const scratch = lintScratch();
afterAll(() => scratch.remove());
const lint = scratch.lint;

const leaks = [
  'import type { EndpointSummary } from "@/server/endpoints/list.ts";\n\nexport type Row = EndpointSummary;\n',
  'import { listEndpoints } from "../../server/endpoints/list.ts";\n\nexport const list = listEndpoints;\n',
];

describe("browser code never imports server/ (DESIGN §2)", () => {
  it.each(["components/endpoints/leak.tsx", "components/leak.ts", "app/endpoints/page.tsx", "app/layout.tsx"])(
    "lint fails for an import of server/ in %s",
    (file) => {
      for (const source of leaks) {
        const { status, output } = lint(file, source);
        expect(status, output).not.toBe(0);
        expect(output).toContain("lint/style/noRestrictedImports");
        expect(output).toContain("must not import server/");
      }
    },
  );

  it("lets browser code import the contracts, and server code and route handlers import server/", () => {
    const contracts =
      'import type { Decision } from "@decision-console/adapter/contract";\n' +
      'import type { EndpointList } from "@/contract/endpoints/endpoint.ts";\n\n' +
      "export type Both = [EndpointList, Decision];\n";
    for (const [file, source] of [
      ["components/endpoints/fine.ts", contracts],
      ["app/endpoints/page.tsx", contracts],
      ["app/api/endpoints/route.ts", leaks[0]],
      ["server/endpoints/other.ts", leaks[1]],
    ] as const) {
      const { status, output } = lint(file, source as string);
      expect(status, `${file}: ${output}`).toBe(0);
    }
  });
});
