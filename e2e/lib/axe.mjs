// axe-core in a page (the accessibility checks): injected by evaluate, which the server's CSP
// does not govern (a script tag would be refused), then run on the whole document.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical violations on the page now, as short readable lines. */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE);
  const res = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return res.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n').slice(1, 2).join('').trim()})`).join('; ')}`);
}
