// Tap targets: every control a finger can reach is at least 44×44 CSS pixels, all of
// it the control's own (nothing on top of it), for the layout and screen tests.

/**
 * Interactive elements of the page (of the open dialog, if any) whose tappable area
 * (the part where the element is topmost, sampled every 2 px) holds no 44×44 square.
 */
export async function smallTargets(page) {
  return page.evaluate(async () => {
    // With a dialog open only its own controls can be reached.
    const scope = [...document.querySelectorAll('.modal')].pop() || document.querySelector('.app-root');
    const els = [...scope.querySelectorAll('button:not(:disabled), a[href], select, input, label, summary')]
      // Not the folded content of a closed <details> (its summary is the target).
      .filter((e) => !(e.tagName === 'INPUT' && e.closest('label')) && e.getClientRects().length)
      .filter((e) => e.tagName === 'SUMMARY' || !e.closest('details:not([open])'));
    const bad = [];
    for (const el of els) {
      let r = el.getBoundingClientRect();
      if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
        el.scrollIntoView({ block: 'center', inline: 'center' });
        await new Promise((res) => requestAnimationFrame(res));
        r = el.getBoundingClientRect();
      }
      const step = 2;
      const cols = Math.floor((r.width + 0.5) / step);
      const rows = Math.floor((r.height + 0.5) / step);
      const need = 44 / step;
      let ok = false;
      if (r.width >= 44 - 0.5 && r.height >= 44 - 0.5) {
        const hit = [];
        for (let y = 0; y < rows; y++) {
          hit.push([]);
          for (let x = 0; x < cols; x++) {
            const e = document.elementFromPoint(r.left + x * step + 1, r.top + y * step + 1);
            hit[y].push(e && (e === el || el.contains(e)) ? 1 : 0);
          }
        }
        // Prefix sums: any need×need block entirely hit.
        const P = Array.from({ length: rows + 1 }, () => new Array(cols + 1).fill(0));
        for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) P[y + 1][x + 1] = hit[y][x] + P[y][x + 1] + P[y + 1][x] - P[y][x];
        const n = need; // 22 samples every 2 px from +1 span 43 of the 44 px
        for (let y = 0; y + n <= rows && !ok; y++) {
          for (let x = 0; x + n <= cols && !ok; x++) {
            // 95 %: a rounded corner's few pixels may belong to the parent.
            if (P[y + n][x + n] - P[y][x + n] - P[y + n][x] + P[y][x] >= 0.95 * n * n) ok = true;
          }
        }
      }
      if (!ok) bad.push(`${el.dataset.testid || el.dataset.action || el.tagName.toLowerCase()}: ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    window.scrollTo(0, 0);
    return bad;
  });
}
