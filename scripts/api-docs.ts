import fs from "node:fs";
import path from "node:path";
import { type ApiRoute, consoleApi } from "../contract/api.ts";
import { type GatewayRoute, gatewayApi, gatewayErrorBodies } from "../contract/gateway/gateway-api.ts";
import { consoleErrorBodySchema, errorStatus } from "../contract/http/error-body.ts";
import { requiredAccess } from "../server/auth/policy.ts";
import { type CurlExample, curlExamples, readField } from "./api-docs/examples.ts";
import { renderSchema } from "./api-docs/render-schema.ts";

/**
 * `npm run docs:api`: writes docs/api-routes.md from the route table (contract/api.ts), its zod schemas, the access
 * rules (server/auth/policy.ts) and the curl examples; `--check` only says whether the file is current.
 */
export const apiDocsFile = path.resolve(import.meta.dirname, "../docs/api-routes.md");

type Key = keyof typeof consoleApi;
const routes = Object.entries(consoleApi) as [Key, ApiRoute][];
const title = (route: Pick<ApiRoute, "method" | "path">) => `${route.method} ${route.path}`;
const anchor = (route: Pick<ApiRoute, "method" | "path">) =>
  title(route)
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .replace(/ /g, "-");

/** JSON as a person writes it: an object or list on one line when it fits, else one member a line. */
function compactJson(value: unknown, indent = ""): string {
  const flat = JSON.stringify(value);
  if (typeof value !== "object" || value === null || indent.length + flat.length <= 88) return flat;
  const inner = `${indent}  `;
  const members = Array.isArray(value)
    ? value.map((item) => `${inner}${compactJson(item, inner)}`)
    : Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${compactJson(item, inner)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${members.join(",\n")}\n${indent}${close}`;
}

function fence(language: string, text: string): string {
  return `\`\`\`${language}\n${text}\n\`\`\``;
}

function shapes(route: Pick<ApiRoute, "query" | "body" | "response" | "status">): string[] {
  const parts: string[] = [];
  if (route.query) parts.push(`Query:\n\n${fence("ts", renderSchema(route.query, "input"))}`);
  if (route.body) parts.push(`Body (JSON):\n\n${fence("ts", renderSchema(route.body, "input"))}`);
  parts.push(
    route.response
      ? `Answer ${route.status}:\n\n${fence("ts", renderSchema(route.response, "output"))}`
      : `Answer ${route.status}, no JSON body.`,
  );
  return parts;
}

function curlCommand(route: ApiRoute, example: CurlExample): string {
  const cookie = example.cookies === "store" ? "-c cookies.txt" : "-b cookies.txt";
  // A captured answer goes to node; a shown one ends with a newline, or is the status when it has no body.
  const written = route.response ? "-w '\\n'" : "-w '%{http_code}\\n'";
  const args = [
    "curl -sS",
    ...(example.capture ? [] : [written]),
    cookie,
    `-X ${route.method}`,
    '-H "origin: $CONSOLE"',
  ];
  if (example.json !== undefined) args.push('-H "content-type: application/json" --data @-');
  args.push(...(example.args ?? []), `"$CONSOLE${example.path}"`);
  const call = args.join(" ");
  const heredoc = example.json === undefined ? "" : ` <<EOF`;
  const body = example.json === undefined ? [] : [compactJson(example.json), "EOF"];
  const lines = example.capture
    ? [
        `${example.capture.variable}=$(${call}${heredoc} | ${readField(example.capture.field)}`,
        ...body,
        ")",
        `echo "$${example.capture.variable}"`,
      ]
    : [`${call}${heredoc}`, ...body];
  return [...(example.before ?? []), ...lines, ...(example.after ?? [])].join("\n");
}

function walkthrough(): string[] {
  const steps = (Object.entries(curlExamples) as [Key, CurlExample][]).map(([key, example], index) => {
    const route = consoleApi[key];
    const note = example.note ? `\n\n${example.note}` : "";
    return `### ${index + 1}. \`${title(route)}\`\n\n${route.summary}${note}\n\n${fence("sh", curlCommand(route, example))}`;
  });
  return [
    "## Try it: every mutating route against a local console",
    [
      "Start a console (`npm start`, local mode) and wait until it prints `Models ready to deploy` (the first-run",
      "models the deploy step uses are packaged then), then run these from the repository root in one shell, in order:",
      "each step may use what an earlier one created (`$IMAGE`, `$DATASET`, `$RUN`). The examples send the session",
      "cookie that step 1 stores and the `Origin` a page of this console would send; curl needs neither on loopback",
      "with no users configured, and a cross-site `Origin` is refused with 403.",
    ].join("\n"),
    fence("sh", "CONSOLE=http://127.0.0.1:3000"),
    ...steps,
  ];
}

/** The decision gateway's routes (contract/gateway/gateway-api.ts): a table, then each one's shapes and errors. */
function gatewaySection(): string[] {
  const gatewayRoutes = Object.values(gatewayApi) as GatewayRoute[];
  const table = gatewayRoutes.map(
    (route) => `| [\`${title(route)}\`](#${anchor(route)}) | \`${route.protocol}\` | ${route.summary} |`,
  );
  const sections = gatewayRoutes.map((route) => {
    const errors = Object.entries(route.errors).map(([status, when]) => `- ${status}: ${when}`);
    return [
      `### ${title(route)}`,
      `${route.summary} Access: a gateway API key.`,
      ...shapes({ ...route, status: 200 }),
      `Errors, in the body below:\n\n${errors.join("\n")}`,
      fence("ts", renderSchema(gatewayErrorBodies[route.protocol], "output")),
    ].join("\n\n");
  });
  return [
    "## Decision gateway (route handlers under `app/v1/`)",
    [
      "Applications call these with a gateway API key an operator created on the Keys page, sent as",
      "`Authorization: Bearer <key>`, never a session: the same-origin rule and the console's error body do not apply.",
      "Each speaks its protocol (docs/gateway.md): bodies are the adapter's (adapter/src/contract), and errors come in",
      "the protocol's own body, TypeSafe's on `/v1/systemone`, OpenAI's on the others. A 429 carries `Retry-After`.",
    ].join("\n"),
    ["| Method and path | Protocol | What it does |", "| --- | --- | --- |", ...table].join("\n"),
    ...sections,
  ];
}

export function renderApiDocs(): string {
  const table = routes.map(([key, route]) => {
    const example =
      key in curlExamples ? ` ([example](#${Object.keys(curlExamples).indexOf(key) + 1}-${anchor(route)}))` : "";
    return `| [\`${title(route)}\`](#${anchor(route)}) | ${requiredAccess(route.path, route.method)} | ${route.summary}${example} |`;
  });
  const sections = routes.map(([key, route]) => {
    const access = requiredAccess(route.path, route.method);
    const step = Object.keys(curlExamples).indexOf(key) + 1;
    const example = step > 0 ? ` Example: [step ${step}](#${step}-${anchor(route)}).` : "";
    const parts = [`### ${title(route)}`, `${route.summary} Access: ${access}.${example}`, ...shapes(route)];
    if (route.note) parts.push(route.note);
    return parts.join("\n\n");
  });
  const codes = Object.entries(errorStatus)
    .map(([code, status]) => `\`${code}\` ${status}`)
    .join(", ");
  return `${[
    "# Console HTTP API (route handlers under `app/api/`)",
    [
      "<!-- Generated by `npm run docs:api` from contract/api.ts, its zod schemas, server/auth/policy.ts and",
      "     scripts/api-docs/examples.ts; tests/docs/api-routes.test.ts fails when this file is stale. -->",
    ].join("\n"),
    [
      "The pages use only these routes. Every handler reads its input with the schemas of `contract/` and answers",
      "values of their types (dates are ISO 8601 strings, never SDK objects). Notation below: `?` marks a field that",
      "may be left out (a defaulted one then takes its default), `integer` a whole number, `// ...` the constraints.",
    ].join("\n"),
    [
      "- **Access**: `anonymous` needs nothing; `viewer` and `operator` need a signed-in user with at least that role",
      "  (401 when signed out, 403 for too little). On loopback with no users configured, every caller is the local",
      "  operator.",
      "- **Same origin**: POST, PUT, PATCH and DELETE are refused (403) when `Sec-Fetch-Site` is not `same-origin` or",
      "  `Origin` is not this console's; a client that sends neither (curl, scripts) is not a browser and passes.",
      "- **Bodies**: JSON with `Content-Type: application/json` (else 415), at most 1 MiB (dataset uploads 20 MiB; 413",
      "  past it).",
      `- **Errors** have one body, with the status of their code (${codes}):`,
    ].join("\n"),
    fence("ts", renderSchema(consoleErrorBodySchema, "output")),
    "## Routes",
    ["| Method and path | Access | What it does |", "| --- | --- | --- |", ...table].join("\n"),
    "## Requests and answers",
    ...sections,
    ...gatewaySection(),
    ...walkthrough(),
  ].join("\n\n")}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const text = renderApiDocs();
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(apiDocsFile) ? fs.readFileSync(apiDocsFile, "utf8") : "";
    if (current !== text) {
      console.error(`${path.relative(process.cwd(), apiDocsFile)} is stale: run npm run docs:api`);
      process.exit(1);
    }
  } else {
    fs.writeFileSync(apiDocsFile, text);
    console.log(`wrote ${path.relative(process.cwd(), apiDocsFile)}`);
  }
}
