import { z } from "zod";
import { roleSchema } from "../../contract/auth/session.ts";

export const userNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9._@-]{1,64}$/, "a user name is 1-64 letters, digits or . _ @ -");

/**
 * A user from the environment (`CONSOLE_USERS`, or the file `CONSOLE_USERS_FILE` names): `{name, role, passwordHash}`
 * with an argon2id hash from `npm run users -- hash`. A plain `password` is accepted for tests and throwaway setups
 * only; it is hashed in memory when first used.
 */
const envUserSchema = z
  .object({
    name: userNameSchema,
    role: roleSchema,
    passwordHash: z.string().startsWith("$argon2id$", "passwordHash must be an argon2id hash").optional(),
    password: z.string().min(1).optional(),
  })
  .strict()
  .refine((user) => (user.passwordHash === undefined) !== (user.password === undefined), {
    message: "give each user exactly one of passwordHash or password",
  });
export type EnvUser = z.infer<typeof envUserSchema>;

/** The users a JSON list names; throws a message that says what is wrong and where, without the list itself. */
export function parseUserList(raw: string): EnvUser[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('is not valid JSON: expected [{"name", "role", "passwordHash"}]');
  }
  const parsed = z.array(envUserSchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`is invalid at ${issue?.path.join(".") || "top level"}: ${issue?.message}`);
  }
  return parsed.data;
}
