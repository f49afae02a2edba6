import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// The quality rules of admin-ui.md §4 that hold on every screen, checked wherever a suite takes a screenshot:
// no serious or critical axe-core violation, no page-wide horizontal overflow, and each control's accessible name
// unique on its screen; at 1280×800 and at 390×844.

type AxeNode = { readonly target: readonly unknown[]; readonly html: string; readonly failureSummary?: string };
type AxeViolation = { readonly id: string; readonly impact: string | null; readonly help: string; readonly nodes: readonly AxeNode[] };
type AxNode = { readonly ignored?: boolean; readonly role?: { readonly value?: unknown }; readonly name?: { readonly value?: unknown } };

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** The two viewports of admin-ui.md §4. */
export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

const BLOCKING = new Set(['serious', 'critical']);

/**
 * Roles of the controls whose accessible name must be unique on a screen: form fields and buttons. Links are left
 * out: two links with the same name and the same target (a breadcrumb and the main navigation) are fine.
 */
const CONTROL_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'spinbutton', 'slider', 'switch', 'button']);

export type ScreenCheckOptions = {
  /**
   * A page the product serves but whose markup it does not write (GraphiQL, Swagger UI): only the axe-core check
   * runs, without the named upstream parts; the Admin UI's own layout and naming rules do not apply. Say why.
   */
  readonly thirdParty?: { readonly reason: string; readonly axeExclude: readonly string[] };
};

/** The serious and critical axe-core violations of the page as it is now, one line per element. */
async function axeViolations(page: Page, exclude: readonly string[]): Promise<string[]> {
  // Page.evaluate runs outside the page's Content-Security-Policy, which forbids injected script tags.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  const context = JSON.stringify({ include: [['html']], exclude: exclude.map((selector) => [selector]) });
  const violations = (await page.evaluate(`axe.run(${context}, { resultTypes: ['violations'] }).then((r) => r.violations)`)) as AxeViolation[];
  return violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `axe ${violation.impact} ${violation.id} (${violation.help}) at ${node.target.join(' ')}: ${node.html.slice(0, 160)}` +
          (node.failureSummary ? ` — ${node.failureSummary.replace(/\s+/g, ' ')}` : ''),
      ),
    );
}

/** Accessible names that several controls of the page share, from Chromium's accessibility tree. */
async function duplicateNames(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
    const seen = new Map<string, number>();
    for (const node of nodes) {
      const role = String(node.role?.value ?? '');
      if (node.ignored || !CONTROL_ROLES.has(role)) continue;
      const key = `${role} "${String(node.name?.value ?? '')}"`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    return [...seen].filter(([, n]) => n > 1).map(([key, n]) => `the accessible name of ${key} is not unique (${n} controls)`);
  } finally {
    await cdp.detach();
  }
}

/** When the page scrolls sideways: by how much, and the elements that stick out (outermost first). */
async function overflow(page: Page): Promise<string[]> {
  const found = (await page.evaluate(`(() => {
    const width = window.innerWidth;
    const by = document.documentElement.scrollWidth - width;
    if (by <= 0) return null;
    // Follow the child that sticks out (by its box, or by content it does not clip) down to the culprit.
    const sticksOut = (el) => {
      const box = el.getBoundingClientRect();
      const clips = getComputedStyle(el).overflowX !== 'visible';
      return box.right > width + 0.5 || (!clips && box.left + el.scrollWidth > width + 0.5);
    };
    const chain = [];
    for (let current = document.body; current; ) {
      current = [...current.children].find(sticksOut);
      if (current) chain.push(current.tagName.toLowerCase() + (typeof current.className === 'string' && current.className.trim() ? '.' + current.className.trim().split(/\\s+/).join('.') : ''));
    }
    return { by, at: chain.slice(-3) };
  })()`)) as { by: number; at: string[] } | null;
  return found === null ? [] : [`the page scrolls sideways by ${found.by}px (at ${found.at.join(' > ')})`];
}

/**
 * Checks the current screen at 1280×800 and at 390×844 (resizing keeps the page's state) and throws, listing every
 * problem, on any serious or critical axe-core violation, a page-wide horizontal overflow, or two controls with the
 * same accessible name. The viewport is restored afterwards.
 */
export async function checkScreen(page: Page, screen: string, options: ScreenCheckOptions = {}): Promise<void> {
  const { thirdParty } = options;
  const before = page.viewportSize() ?? VIEWPORTS[0];
  const found: string[] = [];
  try {
    for (const viewport of VIEWPORTS) {
      const size = page.viewportSize();
      if (size?.width !== viewport.width || size.height !== viewport.height) await page.setViewportSize(viewport);
      const problems = await axeViolations(page, thirdParty?.axeExclude ?? []);
      if (!thirdParty) problems.push(...(await overflow(page)));
      if (!thirdParty && viewport === VIEWPORTS[0]) problems.push(...(await duplicateNames(page)));
      for (const problem of problems) found.push(`[${viewport.width}×${viewport.height}] ${problem}`);
    }
  } finally {
    await page.setViewportSize(before);
  }
  if (found.length > 0) throw new Error(`screen "${screen}" fails admin-ui.md §4:\n${found.join('\n')}`);
}
