import { AppError } from "../http/app-error.ts";

/** A CodeBuild build id is `<project>:<uuid>`. Next.js has already decoded the path segment. */
export async function buildIdParam(params: Promise<{ id: string }>): Promise<string> {
  const { id } = await params;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{1,254}:[A-Za-z0-9-]{1,64}$/.test(id)) {
    throw new AppError("bad_request", `"${id}" is not a build id (expected <project>:<id>).`);
  }
  return id;
}
