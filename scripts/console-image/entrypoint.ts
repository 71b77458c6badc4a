/**
 * The console image's ENTRYPOINT. infra/docker/Dockerfile.console bundles it (esbuild) beside Next.js's standalone
 * server as console-image/entrypoint.mjs: a build step, because what it checks is the console's own TypeScript,
 * not a copy of it. Before anything listens it does what `npm start` does: every setting parsed (a bad one stops
 * it, named), the data directory made private, the database migrated, and beyond loopback sign-in and
 * CONSOLE_SESSION_SECRET required. Then it runs the standalone server in this same process, so SIGTERM reaches the
 * server's own handler, which closes the listening socket and exits.
 */
import { prepareToListen } from "../../server/before-listening.ts";
import { consoleConfig } from "../../server/config.ts";

try {
  const config = consoleConfig();
  await prepareToListen(config);
  // Next.js's standalone server listens on HOSTNAME and PORT; HOST and PORT are the console's settings for them.
  process.env.HOSTNAME = config.HOST;
  process.env.PORT = String(config.PORT);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const standaloneServer = new URL("../server.js", import.meta.url);
await import(standaloneServer.href);
