import { type ControlPlane, type LocalProfile, localClientConfig } from "@decision-console/local-aws";
import { type AwsClients, createAwsClients } from "./clients.ts";

/**
 * The console's own clients (`createAwsClients`, so `npm test`'s request capture records what they send) pointed at
 * `plane` and signing as `principal`: what a test hands to console code under server/ or app/api/.
 */
export function consoleClientsFor(
  plane: Pick<ControlPlane, "url" | "credentials">,
  principal: LocalProfile = "console",
): AwsClients {
  return createAwsClients(localClientConfig(plane, principal));
}
