/** Debian's Chromium (never a downloaded browser), started as this closed-network, root machine needs. */
export const chromiumExecutablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];
