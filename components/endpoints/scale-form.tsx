"use client";

import { useState } from "react";
import type { EndpointStatus } from "@/contract/endpoints/status.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { TextField } from "../ui/field.tsx";
import { useScaleEndpoint } from "./endpoint-queries.ts";

export function ScaleForm({ name, status, current }: { name: string; status: EndpointStatus; current: number | null }) {
  const [count, setCount] = useState(String(current ?? 1));
  const scale = useScaleEndpoint(name);
  const blocked = status !== "InService";
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        scale.mutate(Number(count));
      }}
    >
      <div className="w-32">
        <TextField
          label="Instance count"
          type="number"
          min={1}
          max={20}
          required
          value={count}
          onChange={(event) => setCount(event.target.value)}
        />
      </div>
      <Button type="submit" variant="secondary" disabled={blocked || scale.isPending}>
        {scale.isPending ? "Scaling…" : "Scale"}
      </Button>
      {blocked && <p className="text-xs text-slate-700">Scaling is possible once the endpoint is InService.</p>}
      {scale.error && <ErrorAlert title="Scaling failed" error={scale.error} />}
      {scale.isSuccess && <Alert tone="info">Update started; the endpoint shows Updating until it is done.</Alert>}
    </form>
  );
}
