import { transformJobNameSchema } from "../../contract/batch/transform-job-name.ts";
import { AppError } from "../http/app-error.ts";

/** The `[name]` segment of a transform job route, checked before any AWS call. */
export async function transformJobNameParam(params: Promise<{ name: string }>): Promise<string> {
  const { name } = await params;
  const parsed = transformJobNameSchema.safeParse(name);
  if (!parsed.success) {
    throw new AppError("bad_request", `Transform job name "${name}": ${parsed.error.issues[0]?.message}`);
  }
  return parsed.data;
}
