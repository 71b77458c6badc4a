import type { MonitoringResponse } from "@/contract/endpoints/monitoring.ts";
import { Button } from "../ui/button.tsx";

/**
 * Which decision kinds the view shows of how many, and the way to the other pages: an endpoint asked thousands of
 * distinct questions shows them a page at a time, most decisions first.
 */
export function KindPager({
  kindPage,
  shown,
  onPage,
}: {
  kindPage: MonitoringResponse["kindPage"];
  shown: number;
  onPage: (page: number) => void;
}) {
  const { page, perPage, matching, total, search } = kindPage;
  const first = (page - 1) * perPage + 1;
  const pages = Math.max(1, Math.ceil(matching / perPage));
  const of = search === null ? `${total}` : `${matching} whose question contains “${search}” (of ${total})`;
  return (
    <nav aria-label="Decision kinds" className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
      <p role="status">
        {shown === 0 ? `No decision kinds to show of ${of}` : `Decision kinds ${first}–${first + shown - 1} of ${of}`},
        most decisions first.
      </p>
      {pages > 1 && (
        <div className="flex items-center gap-2">
          <Button type="button" size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <span className="tabular-nums">
            Page {page} of {pages}
          </span>
          <Button type="button" size="sm" variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </div>
      )}
    </nav>
  );
}
