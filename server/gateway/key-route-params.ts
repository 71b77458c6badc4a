import { AppError } from "../http/app-error.ts";

/** The `[id]` segment of a gateway key route: the 12 hex digits every key's id is. */
export async function gatewayKeyIdParam(params: Promise<{ id: string }>): Promise<string> {
  const { id } = await params;
  if (!/^[0-9a-f]{12}$/.test(id)) throw new AppError("bad_request", `"${id}" is not a gateway key id (12 hex digits).`);
  return id;
}
