import type { Role } from "../../contract/auth/session.ts";

/** What a route asks of the caller: nothing, or at least this role. */
export type Access = "anonymous" | Role;

const rank: Record<Access, number> = { anonymous: 0, viewer: 1, operator: 2 };

export function grants(role: Role | null, access: Access): boolean {
  return rank[role ?? "anonymous"] >= rank[access];
}
