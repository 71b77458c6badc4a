import { ApiError, errorFromResponse } from "./api-error.ts";

/** Fetches a console route and returns its JSON body, or throws an ApiError that says what went wrong. */
export async function fetchJson<T>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }) {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init?.method ?? "GET",
      headers: init?.body === undefined ? undefined : { "content-type": "application/json" },
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init?.signal,
      cache: "no-store",
    });
  } catch (cause) {
    if ((cause as Error).name === "AbortError") throw cause;
    throw new ApiError(0, "network", `The console server could not be reached (${(cause as Error).message}).`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const signedOut = response.status === 401 && typeof window !== "undefined";
  if (signedOut && !path.startsWith("/api/auth/") && window.location.pathname !== "/login") {
    window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  }
  if (!response.ok) throw errorFromResponse(response.status, path, body);
  return body as T;
}
