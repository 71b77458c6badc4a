import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const biome = path.join(root, "node_modules/.bin/biome");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "browser-imports-"));
fs.copyFileSync(path.join(root, "biome.json"), path.join(scratch, "biome.json"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Lints `source` as the file at `file` of a tree that has this project's biome.json and nothing else. */
function lint(file: string, source: string): { status: number | null; output: string } {
  const full = path.join(scratch, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, source);
  const result = spawnSync(biome, ["lint", "--vcs-enabled=false", file], { cwd: scratch, encoding: "utf8" });
  fs.rmSync(full);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

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
