import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const components = path.resolve(import.meta.dirname, "../../components");
/**
 * The one module that knows where routes are (its table is checked against contract/api.ts by the compiler), and
 * its test, which checks the URLs it sends.
 */
const client = new Set(["api/console-client.ts", "api/console-client.test.ts"]);
const routeLiteral = /["'`]\/api\//;

describe("the browser calls routes only through the console client (issue 28)", () => {
  it("no file under components/ but the client spells a route's path", () => {
    const spelled = fs
      .readdirSync(components, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
      .map((entry) => path.relative(components, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
      .filter((file) => !client.has(file))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(components, file), "utf8")
          .split("\n")
          .flatMap((line, index) => (routeLiteral.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(spelled).toEqual([]);
  });
});
