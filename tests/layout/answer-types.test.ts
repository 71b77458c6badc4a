import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const routeTable = path.join(root, "contract/api.ts");
const config = ts.getParsedCommandLineOfConfigFile(
  path.join(root, "tsconfig.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  },
);
if (!config) throw new Error("tsconfig.json could not be read");
const options: ts.CompilerOptions = { ...config.options, incremental: false, tsBuildInfoFile: undefined };

const parsedFiles = new Map<string, ts.SourceFile>();

/**
 * The files among `readers` with type errors, when the route table reads `routeTableSource`: the readers and what
 * they import are checked, as `tsc` would, with contract/api.ts swapped for the variant in memory.
 */
function readersWithErrors(readers: string[], routeTableSource: string): Record<string, string[]> {
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, shouldCreate) => {
    if (path.resolve(fileName) === routeTable) return ts.createSourceFile(fileName, routeTableSource, language, true);
    // Every other file is the same in each program: parse it once.
    const parsed = parsedFiles.get(fileName) ?? getSourceFile(fileName, language, onError, shouldCreate);
    if (parsed) parsedFiles.set(fileName, parsed);
    return parsed;
  };
  const program = ts.createProgram(
    readers.map((reader) => path.join(root, reader)),
    options,
    host,
  );
  const errors: Record<string, string[]> = {};
  for (const reader of readers) {
    const file = program.getSourceFile(path.join(root, reader));
    if (!file) throw new Error(`${reader} is not in the program`);
    const messages = ts
      .getPreEmitDiagnostics(program, file)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, " "));
    if (messages.length > 0) errors[reader] = messages;
  }
  return errors;
}

/** The route table with route `key`'s answer schema replaced by `schema`. */
function withAnswer(key: string, schema: string): string {
  const source = fs.readFileSync(routeTable, "utf8");
  const entry = new RegExp(`(\\n  ${key}: \\{[^}]*?\\n    response: )\\w+,`);
  if (!entry.test(source)) throw new Error(`contract/api.ts has no route ${key} with a named response schema`);
  return source.replace(entry, `$1${schema},`);
}

const cases = [
  {
    route: "listEndpoints",
    answer: "endpointDetailSchema",
    readers: ["components/endpoints/endpoint-queries.ts", "components/endpoints/endpoints-view.tsx"],
  },
  {
    route: "describeEndpoint",
    answer: "endpointListSchema",
    readers: ["components/endpoints/endpoint-queries.ts", "components/endpoints/endpoint-detail-view.tsx"],
  },
];

// Type-checking React components with their imports takes seconds a program on a shared machine.
describe("the browser's readers of a route are typed by the route table's answer (issue 28)", {
  timeout: 120_000,
}, () => {
  it("the readers typecheck against the route table as it is", () => {
    const readers = [...new Set(cases.flatMap((entry) => entry.readers))];
    expect(readersWithErrors(readers, fs.readFileSync(routeTable, "utf8"))).toEqual({});
  });

  it.each(cases)("changing $route's answer to $answer fails typecheck in each of its readers", (entry) => {
    const errors = readersWithErrors(entry.readers, withAnswer(entry.route, entry.answer));
    expect(Object.keys(errors).sort()).toEqual([...entry.readers].sort());
  });
});
