import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { MainNav } from "@/components/app/main-nav.tsx";
import { QueryProvider } from "@/components/app/query-provider.tsx";
import { UserMenu } from "@/components/auth/user-menu.tsx";
import "./globals.css";

export const metadata: Metadata = {
  title: "Decision Console",
  description: "Run llama.cpp decision models on Amazon SageMaker AI",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <QueryProvider>
          <header className="bg-slate-900 text-white">
            <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-4 px-4 py-3">
              <Link
                href="/endpoints"
                prefetch={false}
                className="text-lg font-semibold tracking-tight focus-visible:outline-2 focus-visible:outline-white"
              >
                Decision Console
              </Link>
              <MainNav />
              <div className="ml-auto">
                <UserMenu />
              </div>
            </div>
          </header>
          <main id="main" className="mx-auto max-w-7xl px-4 py-6">
            {children}
          </main>
        </QueryProvider>
      </body>
    </html>
  );
}
