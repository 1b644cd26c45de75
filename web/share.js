// The table link and the seat's link to pass on: copy, share, and as a QR code.
import { t } from './i18n.js';
import { h } from './dom.js';
import qrcode from './vendor/qrcode.js';

/** A QR code of `text` as an SVG, drawn from the vendored encoder's modules. */
export function qrSvg(text, label = text) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let d = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c + quiet} ${r + quiet}h1v1h-1z`;
  }
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${n + 2 * quiet} ${n + 2 * quiet}`);
  svg.setAttribute('class', 'qr');
  svg.setAttribute('data-testid', 'qr');
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const bg = document.createElementNS(NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', '#fff');
  const path = document.createElementNS(NS, 'path');
  path.setAttribute('d', d);
  path.setAttribute('fill', '#000');
  svg.append(bg, path);
  return svg;
}

export function otherDevicePanel(link) {
  return h('div', { class: 'modal', testid: 'other-device' },
    h('div', { class: 'panel other-device' },
      h('div', { class: 'panel-head' }, h('strong', {}, t('otherDeviceTitle')),
        h('button', { class: 'x', action: 'close-other-device', testid: 'close-other-device', 'aria-label': t('close') }, '×')),
      link.url ? [
        h('div', { class: 'qr-box' }, qrSvg(link.url, t('otherDeviceTitle'))),
        h('div', { class: 'row nowrap' },
          h('input', { id: 'device-link', readonly: true, value: link.url, testid: 'device-link', 'aria-label': t('otherDeviceTitle') }),
          h('button', { action: 'copy-device-link', testid: 'copy-device-link' }, t('copy'))),
        h('p', { class: 'muted small' }, t('otherDeviceNote')),
      ] : h('p', {}, t('noToken'))));
}

/**
 * The table link with copy, the native share sheet where the browser has one, and a
 * QR code of it.
 */
export function shareBox(link) {
  return h('div', { class: 'share', testid: 'share' },
    h('label', { for: 'share-link' }, t('shareLink')),
    h('div', { class: 'row share-row' },
      h('input', { id: 'share-link', readonly: true, value: link, testid: 'share-link' }),
      h('button', { action: 'copy-link', testid: 'copy-link' }, t('copy')),
      typeof navigator.share === 'function'
        ? h('button', { action: 'share-link', testid: 'share-btn', 'data-url': link }, t('share')) : null,
      h('button', { action: 'share-qr', testid: 'share-qr-btn', 'data-url': link }, t('showQr'))));
}

/** The table link as a QR code, for a phone at the same table to scan. */
export function shareQrPanel(url) {
  return h('div', { class: 'modal', testid: 'share-qr' },
    h('div', { class: 'panel other-device' },
      h('div', { class: 'panel-head' }, h('strong', {}, t('qrTitle')),
        h('button', { class: 'x', action: 'close-share-qr', testid: 'close-share-qr', 'aria-label': t('close') }, '×')),
      h('div', { class: 'qr-box' }, qrSvg(url, t('qrTitle'))),
      h('p', { class: 'muted small' }, t('qrNote'))));
}
