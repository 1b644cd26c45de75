// The game's rounds as this device saw them, and what it missed from the server.
import { roundKey } from './rounds.js';
import { app, render } from './state.js';

/**
 * Keeps each round's `last_round` as it arrives, per table and game, in localStorage
 * too, so that a reload on this device still lists the rounds before the last.
 * The view itself carries only the last round; what this device never saw comes
 * from the server (`fetchRounds`).
 */
export function keepHistory(view) {
  const g = view.game;
  const key = `jass:hist:${view.table}`;
  let h0 = app.ui.historyKey === `${view.table}:${view.games}` ? app.ui.history : null;
  if (!h0) {
    h0 = [];
    try {
      const saved = JSON.parse(localStorage.getItem(key) || 'null');
      if (saved && saved.games === view.games && Array.isArray(saved.rounds)) h0 = saved.rounds;
    } catch { /* a bad entry is dropped */ }
    app.ui.historyKey = `${view.table}:${view.games}`;
  }
  const lr = g?.last_round;
  if (lr && !h0.some((r) => r.round === lr.round && r.complete === lr.complete)) {
    const { seed: _seed, ...row } = lr;
    h0 = [...h0.filter((r) => r.round !== lr.round), row].sort((a, b) => a.round - b.round);
    try { localStorage.setItem(key, JSON.stringify({ games: view.games, rounds: h0 })); } catch { /* full */ }
  }
  app.ui.history = h0;
  fetchRounds(view);
}

/**
 * The server's list of the game's rounds, `GET /api/tables/{table}/rounds`, asked once
 * per round at most: for the rounds this device never saw (it joined or reloaded
 * mid-game, or its storage was cleared), and for the finished round's tricks that its
 * summary browses (views carry only the last one).
 */
function fetchRounds(view) {
  const played = view.game?.rounds_played || 0;
  const phase = view.game?.phase;
  const key = roundKey(view);
  const wantTricks = key && (phase === 'choosing' || phase === 'over') && app.ui.roundTricks?.key !== key;
  if (app.ui.history.length >= played && !wantTricks) return;
  const ask = `${view.table}:${view.games}:${played}:${key}`;
  if (app.ui.historyAsked === ask) return;
  app.ui.historyAsked = ask;
  fetch(`/api/tables/${encodeURIComponent(view.table)}/rounds`)
    .then((r) => (r.ok ? r.json() : null))
    .then((body) => {
      if (!body || body.game !== app.view?.games || !Array.isArray(body.rounds)) return;
      const rows = body.rounds.map(({ seed: _seed, ...row }) => row);
      const mine = app.ui.history.filter((r) => !rows.some((x) => x.round === r.round));
      app.ui.history = [...rows, ...mine].sort((a, b) => a.round - b.round);
      try {
        localStorage.setItem(`jass:hist:${view.table}`, JSON.stringify({ games: body.game, rounds: app.ui.history }));
      } catch { /* full */ }
      const last = rows[rows.length - 1];
      if (last && Array.isArray(body.last_round_tricks)) {
        app.ui.roundTricks = { key: `${view.table}:${body.game}:${last.round}`, tricks: body.last_round_tricks };
      }
      render();
    })
    .catch(() => { /* offline: the note says what is missing */ });
}
