import { resourceNameSchema } from "../../contract/endpoints/endpoint.ts";
import { AppError } from "../http/app-error.ts";

/** The `[name]` segment of a transform job route, checked before any AWS call. */
export async function transformJobNameParam(params: Promise<{ name: string }>): Promise<string> {
  const { name } = await params;
  const parsed = resourceNameSchema.safeParse(name);
  if (!parsed.success) {
    throw new AppError("bad_request", `Transform job name "${name}": ${parsed.error.issues[0]?.message}`);
  }
  return parsed.data;
}
