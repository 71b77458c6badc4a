import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { evaluationDeps } from "@/server/evaluate/context.ts";
import { addSample, uploadDataset } from "@/server/evaluate/datasets/dataset-commands.ts";
import { listDatasets } from "@/server/evaluate/datasets/dataset-store.ts";
import { listSamples } from "@/server/evaluate/datasets/samples.ts";
import { type DatasetList, MAX_DATASET_BYTES, uploadDatasetSchema } from "@/server/evaluate/dto.ts";
import { AppError } from "@/server/http/app-error.ts";
import { readJson, route } from "@/server/http/route.ts";

/** Stored datasets and the built-in samples (with the reason when a sample's file is absent). */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { db } = evaluationDeps();
  const body: DatasetList = {
    datasets: listDatasets(db),
    samples: listSamples().map(({ file: _file, ...sample }) => sample),
  };
  return Response.json(body);
});

async function readUpload(request: Request) {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  if (!type.startsWith("multipart/form-data")) return readJson(request, uploadDatasetSchema);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new AppError("bad_request", "The upload is not a readable multipart form.");
  }
  const file = form.get("file");
  if (!(file instanceof File)) throw new AppError("bad_request", "file: attach a JSONL or CSV file.");
  if (file.size > MAX_DATASET_BYTES) {
    throw new AppError("payload_too_large", `The file is larger than ${MAX_DATASET_BYTES / 1024 / 1024} MiB.`);
  }
  const name = String(form.get("name") ?? "").trim() || file.name.replace(/\.[^.]+$/, "") || "dataset";
  const text = await file.text();
  if (text.trim() === "") throw new AppError("bad_request", "file: the file is empty.");
  return { name, text, fileName: file.name };
}

/** Upload a labelled decision set (multipart `file`, or JSON `{name, text, format?}`), or `{sample}` to add one. */
export const POST = route(async (request) => {
  const principal = await requireRole(request, "viewer");
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_DATASET_BYTES + 64 * 1024) {
    throw new AppError("payload_too_large", `The upload is larger than ${MAX_DATASET_BYTES / 1024 / 1024} MiB.`);
  }
  const input = await readUpload(request);
  const { db } = evaluationDeps();
  const target = "sample" in input ? input.sample : input.name;
  const dataset = await audited(db, { actor: principal.name, action: "dataset.upload", target }, async () =>
    "sample" in input ? addSample(db, input.sample) : uploadDataset(db, input),
  );
  return Response.json(dataset, { status: 201 });
});
