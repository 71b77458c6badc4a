import { z } from "zod";

/** A viewer uses endpoints, the playground and evaluations; an operator also builds, deploys, scales and deletes. */
export const roleSchema = z.enum(["viewer", "operator"]);
export type Role = z.infer<typeof roleSchema>;

/** What a route asks of the caller: nothing, or at least this role. */
export type Access = "anonymous" | Role;

const rank: Record<Access, number> = { anonymous: 0, viewer: 1, operator: 2 };

export function grants(role: Role | null, access: Access): boolean {
  return rank[role ?? "anonymous"] >= rank[access];
}
