"use client";

import { type ReactNode, useEffect, useRef } from "react";

/** A modal on the native <dialog>: the browser traps focus, Escape closes it and focus returns to the opener. */
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby="dialog-title"
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-lg border border-slate-300 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <h2 id="dialog-title" className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {open && children}
    </dialog>
  );
}
