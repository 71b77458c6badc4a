"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { type EndpointStatus, isTransitional } from "@/contract/endpoints/status.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { Button } from "../ui/button.tsx";
import { Dialog } from "../ui/dialog.tsx";
import { TextField } from "../ui/field.tsx";
import { useDeleteEndpoint } from "./endpoint-queries.ts";

/** Deleting removes the endpoint, its config, its model and the console's settings for it: the name is typed to confirm. */
export function DeleteEndpoint({ name, status }: { name: string; status: EndpointStatus }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const remove = useDeleteEndpoint(name);
  const router = useRouter();
  const blocked = isTransitional(status);
  return (
    <>
      <Button
        variant="danger"
        disabled={blocked}
        title={blocked ? `Cannot delete while ${status}` : undefined}
        onClick={() => {
          setTyped("");
          remove.reset();
          setOpen(true);
        }}
      >
        Delete endpoint
      </Button>
      <Dialog open={open} title={`Delete ${name}?`} onClose={() => setOpen(false)}>
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            remove.mutate(undefined, { onSuccess: () => router.push("/endpoints") });
          }}
        >
          <p className="text-sm text-slate-800">
            This deletes the endpoint, its endpoint configuration and its model, and the console forgets its evaluation
            link, kept threshold and drift baselines. Its captured decisions and labels stay. Running requests fail.
          </p>
          <TextField
            label={`Type ${name} to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
          />
          {remove.error && <ErrorAlert title="Delete failed" error={remove.error} />}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={typed !== name || remove.isPending}>
              {remove.isPending ? "Deleting…" : "Delete permanently"}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
