// The pages before a table: the start page (a new table from the server's presets)
// and the join page (a seat at a shared table). What they need of the app comes in
// through `initPages`, so this module holds no table state.
import { t } from './i18n.js';
import { h } from './dom.js';
import { topBar } from './topbar.js';
import { field, optionsFields, targetField, readOptions } from './options.js';
import { levelSelect, storedLevel } from './levels.js';

/** What the app lends these pages: { root, env, store, route, openTable, showMessage, openRecord, setPage, page }. */
let app = null;
const pages = {
  form: null, // the start form's name, preset and fold, kept over a re-render
  presets: null, // `GET /api/presets`, asked once
  presetsError: null,
  join: null, // `GET /api/tables/{table}` of the join page
  joinTimer: null,
};

export function initPages(a) {
  app = a;
}

// ---------------------------------------------------------------- start page

/**
 * The presets and every option's default come from the server (`GET /api/presets`),
 * so the form always offers what the engine plays.
 */
async function loadPresets() {
  try {
    const r = await fetch('/api/presets');
    if (!r.ok) throw new Error(String(r.status));
    pages.presets = await r.json();
  } catch (e) {
    pages.presetsError = String(e.message || e);
  }
  if (app.page() === 'start') renderStart();
}

const SUIT_SIGNS = { hearts: '♥', diamonds: '♦', clubs: '♣', spades: '♠' };

/** "Swisslos (2500, ♣♠ ×2, obe/une ×3)", from the preset's own options. */
function presetLabel(name, o) {
  const byTimes = new Map();
  for (const [k, x] of Object.entries(o.multipliers)) if (x > 1) byTimes.set(x, [...(byTimes.get(x) || []), k]);
  const parts = [...byTimes].sort(([a], [b]) => a - b).map(([x, ks]) => {
    const suits = ks.filter((k) => SUIT_SIGNS[k]).map((k) => SUIT_SIGNS[k]).join('');
    const others = ks.filter((k) => !SUIT_SIGNS[k]).map((k) => t(`short_${k}`)).join('/');
    return `${[suits, others].filter(Boolean).join(' ')} ×${x}`;
  });
  return `${t(`preset_${name}`)} (${[String(o.target), ...(parts.length ? parts : [t('allTimesOne')])].join(', ')})`;
}

export function renderStart() {
  const shell = (...body) => app.root.replaceChildren(h('div', { class: 'app-root' }, topBar(null, app.env()), h('div', { class: 'screen narrow' }, ...body)));
  const known = pages.presets?.presets;
  if (!known?.length) {
    if (!pages.presets && !pages.presetsError) loadPresets();
    shell(h('div', { class: 'panel', testid: pages.presetsError ? 'presets-error' : 'presets-loading' },
      h('p', {}, pages.presetsError ? t('error', { msg: pages.presetsError }) : t('connecting'))));
    return;
  }
  const form = pages.form || { name: localStorage.getItem('jass:name') || '', preset: pages.presets.default };
  const chosen = known.find((p) => p.name === form.preset) || known[0];
  const f = h('form', { class: 'panel start-form', testid: 'start-form' },
    h('h1', {}, t('title')),
    h('p', { class: 'muted' }, t('tagline')),
    field(t('yourName'), h('input', { name: 'name', maxlength: 24, required: true, value: form.name, testid: 'name-input', autocomplete: 'nickname' })),
    field(t('preset'), h('select', { name: 'preset', testid: 'preset-select' },
      known.map((p) => h('option', { value: p.name, selected: p.name === chosen.name }, presetLabel(p.name, p.options))))),
    // The preset and the target first, both buttons next, the other options folded.
    targetField({ target: form.target ?? chosen.options.target }),
    h('button', { class: 'primary big', type: 'submit', testid: 'create-table' }, t('createTable')),
    h('div', { class: 'computers-start' },
      h('button', { class: 'big computers-btn', type: 'button', testid: 'play-computers' }, t('playComputers')),
      levelSelect(form.level || storedLevel(), 'start-level'),
      h('p', { class: 'muted small' }, t('playComputersNote'))),
    h('p', { class: 'error', testid: 'form-error' }),
    h('details', { class: 'opts', testid: 'more-options', open: !!form.open },
      h('summary', { testid: 'more-options-toggle' }, t('moreOptions')),
      optionsFields(chosen.options, { target: false })));
  f.preset.addEventListener('change', () => {
    pages.form = {
      name: f.name.value, preset: f.preset.value, open: f.querySelector('details').open,
      level: f.querySelector('[data-testid=start-level]').value,
    };
    renderStart();
  });
  const create = async (computers) => {
    const name = f.name.value.trim();
    const options = readOptions(f);
    localStorage.setItem('jass:name', name);
    const body = { name, preset: f.preset.value, options };
    // "Play with computers": the server seats three and starts at once (protocol.md 1).
    if (computers) {
      body.computers = true;
      // The three computers' level (normal, the default, left out).
      const level = f.querySelector('[data-testid=start-level]').value;
      if (level !== 'normal') body.computer_level = level;
      try { localStorage.setItem('jass:level', level); } catch { /* ignore */ }
    }
    const res = await postJson('/api/tables', body);
    if (!res.ok) {
      f.querySelector('.error').textContent = res.body?.message || t('error', { msg: res.status });
      return;
    }
    app.store(res.body.table, res.body.seat, res.body.token);
    history.pushState(null, '', `/t/${res.body.table}`);
    app.route();
  };
  f.addEventListener('submit', (ev) => {
    ev.preventDefault();
    create(false);
  });
  f.querySelector('[data-testid=play-computers]').addEventListener('click', () => {
    if (!f.name.reportValidity()) return;
    create(true);
  });
  // A finished game's record (downloaded from a table, or from anywhere) opens for
  // review (protocol.md, "Round review").
  const file = h('input', { type: 'file', accept: 'application/json,.json', testid: 'record-file' });
  const recordError = h('p', { class: 'error', testid: 'record-error' });
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    try {
      const record = JSON.parse(await chosen.text());
      if (!Array.isArray(record?.rounds)) throw new Error('no rounds');
      app.openRecord(record);
    } catch {
      recordError.textContent = t('recordBad');
    }
  });
  const records = h('div', { class: 'panel record-open', testid: 'record-open' },
    h('label', { class: 'field' }, h('span', {}, t('recordOpen')), file),
    h('p', { class: 'muted small' }, t('recordOpenNote')), recordError);
  shell(f, records);
}

export async function postJson(url, body) {
  try {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    let b = null;
    try { b = await r.json(); } catch { /* no body */ }
    return { ok: r.ok, status: r.status, body: b };
  } catch (e) {
    return { ok: false, status: 0, body: { message: String(e) } };
  }
}

// ---------------------------------------------------------------- join page

export async function loadJoin(table) {
  app.setPage('join');
  let info = null;
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(table)}`);
    if (r.status === 404) {
      app.showMessage(t('unknownTable'));
      return;
    }
    info = await r.json();
  } catch {
    app.showMessage(t('unknownTable'));
    return;
  }
  pages.join = info;
  renderJoin();
  // A seat may be freed while this page is open (the host frees one mid-game): look
  // again every few seconds and redraw when which seats are free changes.
  clearInterval(pages.joinTimer);
  pages.joinTimer = setInterval(async () => {
    if (app.page() !== 'join' || pages.join?.table !== table) { clearInterval(pages.joinTimer); return; }
    try {
      const r = await fetch(`/api/tables/${encodeURIComponent(table)}`);
      if (!r.ok) return;
      const next = await r.json();
      const key = (i) => i.seats.map((x) => `${x.name}|${!!x.computer}`).join(',');
      if (app.page() === 'join' && key(next) !== key(pages.join)) {
        pages.join = next;
        renderJoin();
      }
    } catch { /* try again later */ }
  }, 3000);
}

export function renderJoin() {
  const info = pages.join;
  const free = info.seats.map((s, i) => (s.name ? null : i)).filter((i) => i != null);
  const typed = document.querySelector('[data-testid=join-name]')?.value;
  const nameInput = h('input', { name: 'name', maxlength: 24, required: true, value: typed ?? (localStorage.getItem('jass:name') || ''), testid: 'join-name', autocomplete: 'nickname' });
  const err = h('p', { class: 'error', testid: 'join-error' });
  const seats = h('div', { class: 'join-seats' },
    info.seats.map((s, i) => h('button', {
      class: 'join-seat', 'data-seat': i, testid: `join-seat-${i}`, disabled: !!s.name, type: 'button',
    }, h('strong', {}, `${t('seat')} ${i + 1}`), h('span', {}, s.name || t('free')), h('small', {}, `${t('team')} ${i % 2 === 0 ? 'A' : 'B'}`))));
  seats.addEventListener('click', async (ev) => {
    const b = ev.target.closest('button[data-seat]');
    if (!b || b.disabled) return;
    const name = nameInput.value.trim();
    if (!name) { nameInput.focus(); nameInput.reportValidity(); return; }
    localStorage.setItem('jass:name', name);
    const res = await postJson(`/api/tables/${encodeURIComponent(info.table)}/seats`, { name, seat: Number(b.dataset.seat) });
    if (!res.ok) {
      err.textContent = res.body?.message || String(res.status);
      loadJoin(info.table);
      return;
    }
    app.store(res.body.table, res.body.seat, res.body.token);
    app.route();
  });
  const watch = h('button', { type: 'button', testid: 'join-watch' }, t('watch'));
  watch.addEventListener('click', () => app.openTable(info.table, null));
  app.root.replaceChildren(h('div', { class: 'app-root' }, topBar(null, app.env()),
    h('div', { class: 'screen narrow' }, h('div', { class: 'panel join', testid: 'join' },
      h('h2', {}, t('joinTitle')),
      h('label', { class: 'field' }, h('span', {}, t('yourName')), nameInput),
      free.length ? h('p', {}, t('freeSeats')) : h('p', { testid: 'table-full' }, t('tableFull')),
      free.length && info.started ? h('p', { class: 'muted', testid: 'join-next-deal' }, t('joinNextDeal')) : null,
      seats, err, watch))));
}
