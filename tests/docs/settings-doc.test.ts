import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { settingsDocument, settingsTables, withCurrentTables } from "../../scripts/settings-docs.ts";
import { settingNames } from "../../server/config.ts";

describe("docs/settings.md", () => {
  it("is the schema's table: every setting of server/config.ts, with its default and meaning", () => {
    const document = fs.readFileSync(settingsDocument, "utf8");
    expect(document, "rerun scripts/settings-docs.ts").toBe(withCurrentTables(document));
    for (const name of settingNames) expect(settingsTables()).toContain(`| \`${name}\` |`);
  });
});
