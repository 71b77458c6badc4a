import { consoleApi } from "@/contract/api.ts";
import { MAX_DATASET_BYTES } from "@/contract/evaluate/datasets.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { evaluationDeps } from "@/server/context.ts";
import { addSample, uploadDataset } from "@/server/evaluate/datasets/dataset-commands.ts";
import { listDatasets } from "@/server/evaluate/datasets/dataset-store.ts";
import { listSamples } from "@/server/evaluate/datasets/samples.ts";
import { AppError } from "@/server/http/app-error.ts";
import { type BodyLimit, readBodyWithin, readJson, reply, route } from "@/server/http/route.ts";

/** Stored datasets and the built-in samples (with the reason when a sample's file is absent). */
export const GET = route(async (request) => {
  await requireRole(request, "viewer");
  const { store } = evaluationDeps();
  return reply(consoleApi.listDatasets, {
    datasets: await listDatasets(store),
    samples: listSamples().map(({ file: _file, ...sample }) => sample),
  });
});

/** The file plus a form's or JSON body's few fields; a body counted past this is refused before it is parsed. */
const UPLOAD_LIMIT: BodyLimit = {
  maxBytes: MAX_DATASET_BYTES + 64 * 1024,
  tooLarge: `The upload is larger than ${MAX_DATASET_BYTES / 1024 / 1024} MiB: split the dataset into smaller files.`,
};

async function readUpload(request: Request) {
  // As sent: a multipart boundary is case-sensitive.
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    return readJson(request, consoleApi.uploadDataset.body, UPLOAD_LIMIT);
  }
  const body = await readBodyWithin(request, UPLOAD_LIMIT);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("bad_request", "The upload is not a readable multipart form.");
  }
  const file = form.get("file");
  if (!(file instanceof File)) throw new AppError("bad_request", "file: attach a JSONL or CSV file.");
  if (file.size > MAX_DATASET_BYTES) throw new AppError("payload_too_large", UPLOAD_LIMIT.tooLarge);
  const name = String(form.get("name") ?? "").trim() || file.name.replace(/\.[^.]+$/, "") || "dataset";
  const text = await file.text();
  if (text.trim() === "") throw new AppError("bad_request", "file: the file is empty.");
  return { name, text, fileName: file.name };
}

/** Upload a labelled decision set (multipart `file`, or JSON `{name, text, format?}`), or `{sample}` to add one. */
export const POST = route(async (request) => {
  const principal = await requireRole(request, "viewer");
  const input = await readUpload(request);
  const { store } = evaluationDeps();
  const target = "sample" in input ? input.sample : input.name;
  const dataset = await audited(store, { actor: principal.name, action: "dataset.upload", target }, () =>
    "sample" in input ? addSample(store, input.sample) : uploadDataset(store, input),
  );
  return reply(consoleApi.uploadDataset, dataset);
});
