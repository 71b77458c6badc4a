import { consoleApi } from "@/contract/api.ts";
import { requireRole } from "@/server/auth/principal.ts";
import { audited } from "@/server/aws/audited.ts";
import { exportDataset } from "@/server/batch/dataset-export.ts";
import { consoleContext } from "@/server/context.ts";
import { reply, route } from "@/server/http/route.ts";

/** DatasetExport: the dataset's decisions written to S3 as a batch transform job's input. */
export const POST = route(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const principal = await requireRole(request, "operator");
  const { id } = await params;
  const { aws, store, settings } = consoleContext();
  const exported = await audited(store, { actor: principal.name, action: "dataset.export", target: id }, () =>
    exportDataset(aws, settings, store, id),
  );
  return reply(consoleApi.exportDataset, exported);
});
