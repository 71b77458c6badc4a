"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { safeNext } from "@/contract/auth/safe-next.ts";
import { apiUrl } from "../api/console-client.ts";
import { Alert } from "../ui/alert.tsx";
import { Button, buttonClasses } from "../ui/button.tsx";
import { TextField } from "../ui/field.tsx";
import { useLogin, useMe } from "./auth-queries.ts";

/** This page's origin; without a window (server rendering) any fixed origin gives the same answer for a path. */
const pageOrigin = () => (typeof window === "undefined" ? "http://localhost" : window.location.origin);

export function LoginForm() {
  const router = useRouter();
  // Only a path on this console, so a crafted link cannot bounce a fresh session to another site.
  const next = safeNext(useSearchParams().get("next"), pageOrigin(), "/endpoints");
  const me = useMe();
  const login = useLogin();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate({ name, password }, { onSuccess: () => router.replace(next) });
  }

  if (me.data?.mode === "local") {
    return (
      <Alert tone="info" title="Local mode: no sign-in needed">
        No users are configured, so this console listens only on this machine and you act as the local operator.{" "}
        <a className="underline" href={next}>
          Continue
        </a>
      </Alert>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-describedby={login.error ? "login-error" : undefined}>
      <TextField
        label="User name"
        name="username"
        autoComplete="username"
        required
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {login.error && (
        <div id="login-error">
          <Alert title="Sign-in failed">{login.error.message}</Alert>
        </div>
      )}
      <Button type="submit" disabled={login.isPending}>
        {login.isPending ? "Signing in…" : "Sign in"}
      </Button>
      {me.data?.singleSignOn && (
        <a className={buttonClasses("secondary")} href={apiUrl("oidcStart", { query: { next } })}>
          Sign in with single sign-on
        </a>
      )}
    </form>
  );
}
