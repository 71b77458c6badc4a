/**
 * The console image's HEALTHCHECK (bundled as console-image/healthcheck.mjs, like the entrypoint): exits 0 when
 * GET /api/health answers 200 on the console's own address and port, 1 otherwise. Node.js's fetch: the slim base
 * image has no curl.
 */
import { consoleApi } from "../../contract/api.ts";
import { consoleConfig } from "../../server/config.ts";

const { HOST, PORT } = consoleConfig();
// A console listening on every interface answers on loopback.
const address = ["0.0.0.0", "::", "[::]"].includes(HOST)
  ? "127.0.0.1"
  : HOST.includes(":")
    ? `[${HOST.replace(/^\[|\]$/g, "")}]`
    : HOST;
const url = `http://${address}:${PORT}${consoleApi.health.path}`;

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(4000) });
  await response.arrayBuffer();
  if (response.status !== 200) console.error(`${url} answered ${response.status}`);
  process.exit(response.status === 200 ? 0 : 1);
} catch (error) {
  console.error(`${url} did not answer: ${(error as Error).message}`);
  process.exit(1);
}
