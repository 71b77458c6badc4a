import type { Metadata } from "next";
import { AuditView } from "@/components/auth/audit-view.tsx";
import { PageHeader } from "@/components/ui/card.tsx";

export const metadata: Metadata = { title: "Audit log · Decision Console" };

export default function AuditPage() {
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who deployed, scaled, deleted or built what, when, with the AWS request id and the outcome."
      />
      <AuditView />
    </>
  );
}
