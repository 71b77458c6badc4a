import { AppError } from "../http/app-error.ts";

/** A CodeBuild build id is `<project>:<uuid>`. */
export async function buildIdParam(params: Promise<{ id: string }>): Promise<string> {
  const { id: raw } = await params;
  const id = decodeURIComponent(raw);
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{1,254}:[A-Za-z0-9-]{1,64}$/.test(id)) {
    throw new AppError("bad_request", `"${id}" is not a build id (expected <project>:<id>).`);
  }
  return id;
}
