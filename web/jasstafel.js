// The score as a "Jasstafel": per team a Z whose top line carries the hundreds,
// the diagonal the fifties and the bottom line the twenties; what is left (< 20)
// is written as digits. Strokes are grouped as on a slate: hundreds in bundles of
// five (four strokes crossed by the fifth).

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

/** Splits a total into the slate's parts. */
export function slateParts(total) {
  const hundreds = Math.floor(total / 100);
  let rest = total % 100;
  const fifties = rest >= 50 ? 1 : 0;
  rest -= fifties * 50;
  const twenties = Math.floor(rest / 20);
  rest %= 20;
  return { hundreds, fifties, twenties, rest };
}

const X0 = 16;
const X1 = 204;
const YT = 26;
const YB = 126;

/** One team's Z, as an SVG element. */
export function jasstafel(total, label, testid) {
  const p = slateParts(total);
  const svg = el('svg', { viewBox: '0 0 220 150', class: 'jasstafel', role: 'img', 'aria-label': `${label}: ${total}` });
  if (testid) svg.setAttribute('data-testid', testid);
  svg.append(el('rect', { x: 1, y: 1, width: 218, height: 148, rx: 8, class: 'slate' }));
  const chalk = { class: 'chalk' };
  // The Z.
  svg.append(el('path', { d: `M${X0} ${YT}H${X1}L${X0} ${YB}H${X1}`, class: 'zline' }));
  // Hundreds on the top line, in bundles of five.
  const groups = Math.ceil(p.hundreds / 5);
  const step = Math.min(7, 150 / Math.max(1, p.hundreds + groups));
  let x = X0 + 6;
  const g = el('g', chalk);
  for (let i = 0; i < p.hundreds; i++) {
    const inGroup = i % 5;
    if (inGroup === 4) {
      g.append(el('path', { d: `M${x - 4 * step - 2} ${YT + 8}L${x} ${YT - 8}` }));
      x += step * 1.6;
    } else {
      g.append(el('path', { d: `M${x} ${YT - 9}V${YT + 9}` }));
      x += step;
    }
  }
  // The fifty crosses the diagonal.
  if (p.fifties) {
    const mx = (X0 + X1) / 2;
    const my = (YT + YB) / 2;
    g.append(el('path', { d: `M${mx - 9} ${my - 12}L${mx + 9} ${my + 12}` }));
  }
  // Twenties on the bottom line.
  for (let i = 0; i < p.twenties; i++) {
    const tx = X0 + 10 + i * 9;
    g.append(el('path', { d: `M${tx} ${YB - 9}V${YB + 9}` }));
  }
  svg.append(g);
  // The rest as digits, right of the diagonal.
  if (p.rest > 0) svg.append(el('text', { x: 178, y: 84, class: 'chalk-text' }, String(p.rest)));
  return svg;
}
