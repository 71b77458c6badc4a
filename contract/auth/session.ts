import { z } from "zod";

/** A viewer uses endpoints, the playground and evaluations; an operator also builds, deploys, scales and deletes. */
export const roleSchema = z.enum(["viewer", "operator"]);
export type Role = z.infer<typeof roleSchema>;

export const principalSchema = z.object({
  name: z.string(),
  role: roleSchema,
  /** `local`: no users are configured and the console listens only on loopback (the local-mode default). */
  source: z.enum(["local", "password", "oidc"]),
});
export type Principal = z.infer<typeof principalSchema>;

/** `GET /api/auth/me`: who is signed in (null: nobody), and how this console signs people in. */
export const meResponseSchema = z.object({
  user: principalSchema.nullable(),
  mode: z.enum(["local", "users"]),
  singleSignOn: z.boolean(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/** `POST /api/auth/login` body. */
export const loginRequestSchema = z.object({
  name: z.string().min(1, "enter your user name").max(64),
  password: z.string().min(1, "enter your password").max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** The signed-in user; the session cookie comes in `Set-Cookie`. */
export const loginResponseSchema = z.object({ user: principalSchema.pick({ name: true, role: true }) });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const logoutResponseSchema = z.object({ user: z.null() });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

/** `GET /api/auth/oidc/start?next=`: where to go once signed in (a path of this console; anything else goes to /). */
export const oidcStartQuerySchema = z.object({ next: z.string().optional() });
