import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";

/** Every page is checked at a desktop width and at a phone's (an iPhone 14's 390 CSS px), in both colour schemes. */
export const checkedWidths = [1280, 390] as const;
export const checkedSchemes = ["light", "dark"] as const;

/** The serious and critical axe violations on the page, one line per rule with the elements that break it. */
async function blockingViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes
          .slice(0, 5)
          .map(
            (node) =>
              `${node.target.join(" ")}${node.failureSummary ? ` (${node.failureSummary.split("\n").at(-1)?.trim()})` : ""}`,
          )
          .join("\n  ")}`,
    );
}

/** Fails on any serious or critical axe violation, listing each rule with the elements that break it. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await blockingViolations(page), `axe found serious or critical violations on ${page.url()}`).toEqual([]);
}

/**
 * How wide the page is against the window, and when wider, the outermost elements that reach past the window's
 * right edge (what to fix).
 */
async function pageWidth(page: Page): Promise<{ scrollWidth: number; innerWidth: number; widest: string[] }> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const scrollWidth = document.documentElement.scrollWidth;
    const widest: string[] = [];
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${
        typeof element.className === "string" && element.className
          ? `.${element.className.trim().split(/\s+/).slice(0, 6).join(".")}`
          : ""
      }`;
    if (scrollWidth > innerWidth) {
      const reaches = (element: Element) => element.getBoundingClientRect().right > innerWidth + 0.5;
      for (const element of document.body.querySelectorAll("*")) {
        if (!reaches(element) || widest.length >= 8) continue;
        // The outermost: its parent fits (or scrolls it inside itself).
        const parent = element.parentElement;
        const parentClips = parent && getComputedStyle(parent).overflowX !== "visible";
        if (parent && !parentClips && reaches(parent) && parent !== document.body) continue;
        if (parentClips) continue;
        widest.push(`${name(element)} (right edge ${Math.round(element.getBoundingClientRect().right)} px)`);
      }
    }
    if (scrollWidth > innerWidth && widest.length === 0) {
      // Text, not an element, reaches past the edge: name the boxes its line overflows.
      for (const element of document.body.querySelectorAll("*")) {
        if (widest.length >= 8) break;
        const visible = getComputedStyle(element).overflowX === "visible";
        if (visible && element.scrollWidth > element.clientWidth + 1 && element.children.length === 0) {
          widest.push(`text in ${name(element)} (${element.scrollWidth} px in ${element.clientWidth})`);
        }
      }
    }
    return { scrollWidth, innerWidth, widest };
  });
}

/**
 * Every sorted column on the page: its arrow matches its `aria-sort` (▼ descending, ▲ ascending), and when it
 * holds times, its rows are in that order (descending: newest first). One line per column that disagrees.
 */
async function sortProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const header of document.querySelectorAll("th[aria-sort]")) {
      const direction = header.getAttribute("aria-sort");
      const name = header.textContent?.trim() ?? "";
      const arrow = direction === "descending" ? "▼" : direction === "ascending" ? "▲" : null;
      if (arrow && !name.includes(arrow)) problems.push(`${name}: aria-sort ${direction} without ${arrow}`);
      const table = header.closest("table");
      const column = Array.from(header.parentElement?.children ?? []).indexOf(header);
      const times = Array.from(table?.tBodies[0]?.rows ?? [])
        .map((row) => row.cells[column]?.querySelector("time")?.getAttribute("datetime"))
        .filter((at): at is string => Boolean(at))
        .map((at) => Date.parse(at));
      const ordered = times.every((t, i) =>
        i === 0 ? true : direction === "descending" ? (times[i - 1] as number) >= t : (times[i - 1] as number) <= t,
      );
      if (!ordered) problems.push(`${name}: rows are not ${direction} by time`);
    }
    return problems;
  });
}

/** Two animation frames: the layout and paint after a viewport or colour-scheme change. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/** A full-page screenshot attached to the report and kept under test-results. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/**
 * Every page check the suite makes, at 1280 px and 390 px wide, in the light and the dark colour scheme: no
 * serious or critical axe violation and no horizontal page scroll (the page no wider than the window) in each of
 * the four, each photographed for the report. Each combination is a soft assertion, so one run reports all four;
 * the page's own viewport and scheme are restored afterwards, whatever the outcome.
 */
export async function checkPage(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  const wasDark = await page.evaluate(() => window.matchMedia("(prefers-color-scheme: dark)").matches);
  expect.soft(await sortProblems(page), `${name}: sorted columns disagree with their arrow or order`).toEqual([]);
  try {
    for (const colorScheme of checkedSchemes) {
      await page.emulateMedia({ colorScheme });
      for (const width of checkedWidths) {
        const where = `${name} at ${width} px, ${colorScheme}`;
        await page.setViewportSize({ width, height: viewport.height });
        await settle(page);
        const shot = colorScheme === "light" && width === viewport.width ? name : `${name}-${width}-${colorScheme}`;
        await screenshot(page, testInfo, shot);
        expect.soft(await blockingViolations(page), `axe: serious or critical violations on ${where}`).toEqual([]);
        const measured = await pageWidth(page);
        testInfo.annotations.push({
          type: "page width",
          description: `${where}: ${measured.scrollWidth} px in a ${measured.innerWidth} px window`,
        });
        expect
          .soft(
            measured.scrollWidth,
            `${where}: the page scrolls sideways; reaching past the window's edge: ${measured.widest.join("; ")}`,
          )
          .toBeLessThanOrEqual(measured.innerWidth);
      }
    }
  } finally {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: wasDark ? "dark" : "light" });
    await settle(page);
  }
}
