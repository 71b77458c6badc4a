import type { ReactNode } from "react";

export type Tone = "neutral" | "success" | "warning" | "danger" | "info";

const toneClasses: Record<Tone, string> = {
  neutral: "bg-slate-100 text-slate-800 ring-slate-300",
  success: "bg-green-50 text-green-800 ring-green-600/30",
  warning: "bg-amber-50 text-amber-900 ring-amber-600/40",
  danger: "bg-red-50 text-red-800 ring-red-600/30",
  info: "bg-blue-50 text-blue-800 ring-blue-600/30",
};

export function Badge({ tone = "neutral", children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${toneClasses[tone]}`}
    >
      {children}
    </span>
  );
}
