import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/** A botocore service model (`service-2.json`): the parts the input-shape generator reads. */
export interface ServiceModel {
  metadata: { apiVersion: string; serviceId: string; protocol?: string };
  operations: Record<string, { input?: { shape: string } }>;
  shapes: Record<string, ModelShape>;
}

/** A structure member: its shape and, in the REST protocols, where on the HTTP request it travels. */
export interface ModelMember {
  shape: string;
  location?: "uri" | "querystring" | "header" | "headers" | "statusCode";
  locationName?: string;
  timestampFormat?: string;
}

export interface ModelShape {
  type: string;
  members?: Record<string, ModelMember>;
  required?: string[];
  payload?: string;
  timestampFormat?: string;
  member?: { shape: string };
  key?: { shape: string };
  value?: { shape: string };
  min?: number;
  max?: number;
  pattern?: string;
  enum?: string[];
}

/** The pinned botocore of the project's Python test environment (requirements/tests.txt, `npm run py:env`). */
export interface Botocore {
  version: string;
  dataDir: string;
}

export const TEST_VENV_PYTHON = ".venv-tests/bin/python";

/** Where the venv's botocore keeps its models, and its version; null without the venv. */
export function locateBotocore(root: string): Botocore | null {
  const python = path.join(root, TEST_VENV_PYTHON);
  if (!fs.existsSync(python)) return null;
  const probe = spawnSync(
    python,
    [
      "-c",
      "import botocore, os; print(botocore.__version__); print(os.path.join(os.path.dirname(botocore.__file__), 'data'))",
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  if (probe.status !== 0) throw new Error(`${python} could not import botocore: ${probe.stderr.trim()}`);
  const [version, dataDir] = probe.stdout.trim().split("\n");
  return { version: version!, dataDir: dataDir! };
}

/** One service's model at its API version, gzipped (newer botocore) or not. */
export function readServiceModel(botocore: Botocore, service: string, apiVersion: string): ServiceModel {
  const folder = path.join(botocore.dataDir, service, apiVersion);
  const gzipped = path.join(folder, "service-2.json.gz");
  const text = fs.existsSync(gzipped)
    ? zlib.gunzipSync(fs.readFileSync(gzipped)).toString("utf8")
    : fs.readFileSync(path.join(folder, "service-2.json"), "utf8");
  return JSON.parse(text) as ServiceModel;
}
