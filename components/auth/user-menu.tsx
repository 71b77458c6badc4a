"use client";

import Link from "next/link";
import { Button } from "../ui/button.tsx";
import { useLogout, useMe } from "./auth-queries.ts";

/** The signed-in user, their role, the audit log for operators, and sign-out; "local operator" in local mode. */
export function UserMenu() {
  const me = useMe();
  const logout = useLogout();
  const user = me.data?.user;
  if (!user) return null;
  return (
    <div className="flex items-center gap-3 text-sm">
      {user.role === "operator" && (
        <Link href="/audit" className="text-slate-100 underline-offset-2 hover:underline">
          Audit log
        </Link>
      )}
      <span className="text-slate-200">
        {user.source === "local" ? "Local operator" : `${user.name} (${user.role})`}
      </span>
      {user.source !== "local" && (
        <Button
          variant="secondary"
          size="sm"
          disabled={logout.isPending}
          onClick={() => logout.mutate(undefined, { onSuccess: () => window.location.assign("/login") })}
        >
          Sign out
        </Button>
      )}
    </div>
  );
}
