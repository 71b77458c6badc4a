import { resourceNameSchema } from "../../contract/endpoints/endpoint.ts";
import { AppError } from "../http/app-error.ts";

/** The `[name]` segment of an endpoint route, checked before any AWS call. */
export async function endpointNameParam(params: Promise<{ name: string }>): Promise<string> {
  const { name } = await params;
  const parsed = resourceNameSchema.safeParse(name);
  if (!parsed.success) throw new AppError("bad_request", `Endpoint name "${name}": ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
