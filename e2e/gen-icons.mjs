// Renders the app icons in ../web/icons/ from icon.svg with Chromium:
// icon-192.png and icon-512.png (rounded felt, transparent corners) and
// icon-maskable-512.png (the felt fills the square, the cards shrunk well inside the
// safe circle of radius 40 %, so any launcher mask keeps them whole).
// Run: node gen-icons.mjs
import { readFileSync } from 'node:fs';
import { launch } from './lib/browser.mjs';

const DIR = new URL('../web/icons/', import.meta.url).pathname;
const svg = readFileSync(`${DIR}icon.svg`, 'utf8');

/** The maskable variant: square felt, the cards scaled about the centre. */
function maskable(src) {
  return src
    .replace(/rx="104"/, 'rx="0"')
    .replace('<g id="cards">', '<g id="cards" transform="translate(256 256) scale(0.8) translate(-256 -256)">');
}

const browser = await launch();
for (const [name, size, src] of [
  ['icon-192.png', 192, svg],
  ['icon-512.png', 512, svg],
  ['icon-maskable-512.png', 512, maskable(svg)],
]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const sized = src.replace('<svg ', `<svg width="${size}" height="${size}" `);
  await page.setContent(`<!doctype html><body style="margin:0;background:transparent">${sized}</body>`);
  await page.screenshot({ path: `${DIR}${name}`, omitBackground: true });
  await page.close();
}
await browser.close();
console.log(`icons in ${DIR}`);
