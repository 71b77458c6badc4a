"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const links = [
  { href: "/endpoints", label: "Endpoints" },
  { href: "/deploy", label: "Deploy" },
  { href: "/builds", label: "Builds" },
  { href: "/models", label: "Models" },
  { href: "/batch", label: "Batch" },
  { href: "/playground", label: "Playground" },
  { href: "/evaluate", label: "Evaluate" },
  { href: "/keys", label: "Keys" },
];

export function MainNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main">
      <ul className="flex flex-wrap gap-1">
        {links.map((link) => {
          const current = pathname === link.href || pathname.startsWith(`${link.href}/`);
          return (
            <li key={link.href}>
              <Link
                href={link.href}
                // A prefetch made while signed out caches the sign-in redirect, which the router would replay after sign-in.
                prefetch={false}
                aria-current={current ? "page" : undefined}
                className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white ${
                  current ? "bg-white text-slate-900" : "text-slate-100 hover:bg-slate-700"
                }`}
              >
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
