import { consoleApi } from "@/contract/api.ts";
import { recordAudit } from "@/server/audit/record.ts";
import { verifyCredentials } from "@/server/auth/passwords.ts";
import { loginThrottle } from "@/server/auth/rate-limit.ts";
import { sessionCookie, sessionKey, signSession } from "@/server/auth/session.ts";
import { usersConfigured } from "@/server/auth/users.ts";
import { consoleConfig } from "@/server/config.ts";
import { AppError } from "@/server/http/app-error.ts";
import { clientAddress } from "@/server/http/forwarded.ts";
import { rateLimitedResponse, readJson, reply, route } from "@/server/http/route.ts";
import { consoleStore } from "@/server/store/console-database.ts";

const refusals = {
  addressAndName: (name: string) => `Too many sign-in attempts for ${name} from your address`,
  address: () => "Too many sign-in attempts from your address",
  everyone: () => "Too many sign-in attempts on this console right now",
};

export const POST = route(async (request) => {
  const { name, password } = await readJson(request, consoleApi.login.body);
  const config = consoleConfig();
  const store = consoleStore(config);
  if (!(await usersConfigured(store, config))) {
    throw new AppError(
      "conflict",
      "No users are configured: on loopback the console already runs as the local operator.",
    );
  }
  const attempt = await loginThrottle(store).take(clientAddress(request, config), name);
  if (!attempt.allowed) {
    const wait = attempt.retryAfterSeconds;
    return rateLimitedResponse(`${refusals[attempt.limit](name)}; wait ${wait} s.`, wait);
  }
  const user = await verifyCredentials(store, name, password, config);
  if (!user) {
    await recordAudit({ actor: name, action: "auth.login", target: name, result: "denied" }, store);
    throw new AppError("unauthenticated", "That user name and password do not match.");
  }
  await recordAudit({ actor: user.name, action: "auth.login", target: user.name, result: "ok" }, store);
  const token = await signSession({ ...user, source: "password" }, sessionKey(config));
  return reply(consoleApi.login, { user }, { headers: { "set-cookie": sessionCookie(request, token, config) } });
});
