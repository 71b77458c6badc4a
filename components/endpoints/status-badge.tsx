import { type EndpointStatus, isTransitional } from "@/contract/endpoints/status.ts";
import { Badge } from "../ui/badge.tsx";
import { statusTone } from "./endpoint-format.ts";

export function StatusBadge({ status }: { status: EndpointStatus }) {
  return (
    <Badge tone={statusTone(status)}>
      {isTransitional(status) && (
        <span aria-hidden="true" className="mr-1 inline-block size-1.5 animate-pulse rounded-full bg-current" />
      )}
      {status}
    </Badge>
  );
}
