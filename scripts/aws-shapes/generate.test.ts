import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { locateBotocore, type ServiceModel, TEST_VENV_PYTHON } from "./botocore-models.ts";
import { generateInputShapes } from "./generate.ts";
import { GENERATED_DIR, renderService } from "./render.ts";
import { servedServices } from "./served-operations.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** A service model of three operations, with one shape of every kind the generator reads. */
const tiny: ServiceModel = {
  metadata: { apiVersion: "2026-01-01", serviceId: "Tiny" },
  operations: {
    PutThing: { input: { shape: "PutThingInput" } },
    ListThings: {},
    Loop: { input: { shape: "Node" } },
  },
  shapes: {
    PutThingInput: {
      type: "structure",
      required: ["Name"],
      members: {
        Name: { shape: "Name" },
        Tags: { shape: "TagList" },
        Labels: { shape: "Labels" },
        Size: { shape: "Size" },
      },
    },
    Name: { type: "string", min: 1, max: 63, pattern: "[a-z]+" },
    TagList: { type: "list", member: { shape: "Mode" }, max: 2 },
    Mode: { type: "string", enum: ["On", "Off"] },
    Labels: { type: "map", key: { shape: "Name" }, value: { shape: "Name" } },
    Size: { type: "integer", min: 1, max: 10 },
    Node: { type: "structure", members: { Next: { shape: "Node" } } },
  },
};

describe("generateInputShapes", () => {
  const source = generateInputShapes(tiny, {
    operations: ["PutThing", "ListThings"],
    exportName: "tinyInputShapes",
    source: "a test model",
  });

  it("declares each shape once, before the shapes that use it, with only its constraint traits", () => {
    expect(source).toContain('const nameShape: Shape = { type: "string", min: 1, max: 63, pattern: "[a-z]+" };');
    expect(source).toContain('const modeShape: Shape = { type: "string", enum: ["On","Off"] };');
    expect(source).toContain('const tagListShape: Shape = { type: "list", member: modeShape, max: 2 };');
    expect(source).toContain('const labelsShape: Shape = { type: "map", key: nameShape, value: nameShape };');
    expect(source).toContain('const sizeShape: Shape = { type: "integer", min: 1, max: 10 };');
    expect(source).toContain(
      'const putThingInputShape: StructureShape = { type: "structure", required: ["Name"], members: { Name: nameShape, Tags: tagListShape, Labels: labelsShape, Size: sizeShape } };',
    );
    expect(source.match(/const nameShape/g)).toHaveLength(1);
    expect(source.indexOf("const modeShape")).toBeLessThan(source.indexOf("const tagListShape"));
  });

  it("tables every operation, one without an input as an empty structure", () => {
    expect(source).toContain('export type TinyInputShapesOperation = "PutThing" | "ListThings";');
    expect(source).toContain("  PutThing: putThingInputShape,");
    expect(source).toContain('  ListThings: { type: "structure", members: {} },');
  });

  it("refuses a recursive input and an operation the model lacks", () => {
    expect(() => generateInputShapes(tiny, { operations: ["Loop"], exportName: "t", source: "s" })).toThrow(
      "recursive input shape: Loop -> Node -> Node",
    );
    expect(() => generateInputShapes(tiny, { operations: ["Missing"], exportName: "t", source: "s" })).toThrow(
      "Tiny has no operation Missing",
    );
  });
});

/** A REST service of one operation whose members travel in the URI, the query string, headers and the body. */
const tinyRest: ServiceModel = {
  metadata: { apiVersion: "2026-01-01", serviceId: "TinyRest", protocol: "rest-xml" },
  operations: { PutThing: { input: { shape: "PutThingRequest" } }, Ping: {} },
  shapes: {
    PutThingRequest: {
      type: "structure",
      required: ["Name"],
      payload: "Body",
      members: {
        Name: { shape: "Text", location: "uri", locationName: "Name" },
        Limit: { shape: "Count", location: "querystring", locationName: "max-things" },
        Since: { shape: "Moment", location: "header", locationName: "x-since" },
        Until: { shape: "Moment", location: "header", locationName: "x-until", timestampFormat: "iso8601" },
        Labels: { shape: "Labels", location: "headers", locationName: "x-label-" },
        Body: { shape: "Bytes" },
      },
    },
    Text: { type: "string" },
    Count: { type: "integer" },
    Moment: { type: "timestamp" },
    Labels: { type: "map", key: { shape: "Text" }, value: { shape: "Text" } },
    Bytes: { type: "blob" },
  },
};

describe("generateInputShapes for a REST protocol", () => {
  const source = generateInputShapes(tinyRest, {
    operations: ["PutThing", "Ping"],
    exportName: "tinyRestInputShapes",
    source: "a test model",
  });

  it("tables each input's HTTP bindings: location, name there, a timestamp's format, and the payload member", () => {
    expect(source).toContain('import type { RestBindings } from "../rest-binding.ts";');
    expect(source).toContain(
      "export const tinyRestInputBindings: Record<TinyRestInputShapesOperation, RestBindings> = {",
    );
    expect(source).toContain(
      '  PutThing: { payload: "Body", members: { Name: { location: "uri", name: "Name" }, Limit: { location: "querystring", name: "max-things" }, Since: { location: "header", name: "x-since" }, Until: { location: "header", name: "x-until", format: "iso8601" }, Labels: { location: "headers", name: "x-label-" } } },',
    );
    expect(source).toContain("  Ping: { members: {} },");
  });

  it("tables no bindings for a JSON protocol", () => {
    expect(generateInputShapes(tiny, { operations: ["PutThing"], exportName: "t", source: "s" })).not.toContain(
      "Bindings",
    );
  });
});

const botocore = locateBotocore(root);
const required = process.env.PYTHON_TESTS === "required";
if (!botocore)
  console.warn(`generated AWS shapes freshness: skipped: no ${TEST_VENV_PYTHON} (npm run py:env creates it)`);

describe.skipIf(!botocore && !required)("the committed input shapes", () => {
  it.each(servedServices.map((served) => [served.file, served] as const))(
    "%s is what npm run gen:aws-shapes writes from the pinned botocore",
    (file, served) => {
      if (!botocore) throw new Error(`PYTHON_TESTS=required but there is no ${TEST_VENV_PYTHON}`);
      const committed = fs.readFileSync(path.join(root, GENERATED_DIR, file), "utf8");
      expect(committed, `${file} is stale: run npm run gen:aws-shapes`).toBe(renderService(root, botocore, served));
    },
  );
});
