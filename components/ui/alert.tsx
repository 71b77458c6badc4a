import type { ReactNode } from "react";

export function Alert({
  tone = "danger",
  title,
  children,
}: {
  tone?: "danger" | "info" | "warning";
  title?: string;
  children: ReactNode;
}) {
  const classes = {
    danger: "border-red-300 bg-red-50 text-red-900",
    info: "border-blue-300 bg-blue-50 text-blue-900",
    warning: "border-amber-300 bg-amber-50 text-amber-950",
  }[tone];
  return (
    <div
      role={tone === "danger" ? "alert" : "status"}
      className={`rounded-md border px-3 py-2 text-sm wrap-anywhere ${classes}`}
    >
      {title && <p className="font-semibold">{title}</p>}
      <div>{children}</div>
    </div>
  );
}
