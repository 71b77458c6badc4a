"use client";

import { type KeyboardEvent, type ReactNode, useId } from "react";

export type TabItem<K extends string> = { key: K; label: string };

/** WAI-ARIA tabs: arrow keys move between tabs, only the active tab is in the tab order. */
export function Tabs<K extends string>({
  label,
  items,
  active,
  onChange,
  children,
}: {
  label: string;
  items: TabItem<K>[];
  active: K;
  onChange: (key: K) => void;
  children: ReactNode;
}) {
  const id = useId();
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = items.findIndex((item) => item.key === active);
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    const next = items[(index + step + items.length) % items.length];
    if (!next) return;
    onChange(next.key);
    document.getElementById(`${id}-tab-${next.key}`)?.focus();
  }
  return (
    <div>
      <div
        role="tablist"
        aria-label={label}
        className="mb-3 flex gap-1 border-b border-slate-300"
        onKeyDown={onKeyDown}
      >
        {items.map((item) => (
          <button
            key={item.key}
            id={`${id}-tab-${item.key}`}
            type="button"
            role="tab"
            aria-selected={item.key === active}
            aria-controls={`${id}-panel`}
            tabIndex={item.key === active ? 0 : -1}
            onClick={() => onChange(item.key)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700 ${
              item.key === active
                ? "border-blue-700 text-blue-800"
                : "border-transparent text-slate-700 hover:text-slate-900"
            }`}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${active}`}>
        {children}
      </div>
    </div>
  );
}
