// The page: a game against a level of the bundle, on the runtime's rules (engine_worker.js). The
// page holds the game's record (its start and moves) and draws what the runtime answers; every
// legal move, check, count, end and SAN is the C API's.
//
// URL parameters: bundle (the bundle's folder, default the first of bundles.txt, else bundle/), profile, side (white|black),
// level, fen (a start position), seed (the game's; the search of ply p uses seed * (p + 1), the
// seed of sittuyin-client's search after p ucinewgame: tests/web), simd=0 (the build without
// wasm SIMD).
import { BoardView } from './board.js';
import { Engine } from './engine.js';
import { loadFormations } from './formations.js';
import { pgnDate, pgnResult, toPgn } from './pgn.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const SEARCH_LEVELS = [64, 256, 800];  // offered when the bundle has no measured levels

const REASONS = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  'bare-king': 'bare king',
  'no-legal-move-draw': 'no legal move',
  'n-move': 'the n-move rule',
  repetition: 'repetition',
  counting: 'the count ran out',
  'promotion-only': 'only promotions left',
  insufficient: 'insufficient material',
};

// What the page knows; window.sz shows it to tests.
const app = {
  engine: null,
  info: null,         // the bundle: game, profiles, levels
  profile: null,
  humanWhite: true,
  seed: 0n,
  startFen: '',
  moves: [],          // { uci, san, white }
  view: null,         // the runtime's: fen, legal, status, result, reason
  busy: false,
  flipped: false,
  formations: [],
  thinkTimes: [],     // ms of each engine move
  timings: {},
  error: null,
  fenParam: params.get('fen') || null,  // the start of the first bundle's games
};
window.sz = app;

function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}

function showMessage(text, kind = '') {
  const el = $('message');
  el.textContent = text;
  el.className = kind;
  el.hidden = !text;
}

function humanToMove() {
  return app.view && app.view.result === 'ongoing' && (app.view.status.sideToMove === 0) === app.humanWhite;
}

function levelChoice() {
  const value = $('level').value;
  if (value.startsWith('sims:')) return { level: 0, simulations: Number(value.slice(5)) };
  return { level: Number(value) };
}

function levelName() {
  const choice = levelChoice();
  if (!choice.level) return `sittuyin-zero search ${choice.simulations}`;
  const l = app.info.levels.find((x) => x.level === choice.level);
  return `sittuyin-zero level ${l.level} (${l.name}, ${Math.round(l.elo)} Elo)`;
}

// ---- drawing

function render() {
  const v = app.view;
  if (!v) return;
  board.render({
    fen: v.fen,
    legal: v.legal,
    game: app.info.game,
    lastMove: app.moves.length ? app.moves[app.moves.length - 1].uci : null,
    inCheck: v.status.inCheck,
    interactive: !app.busy && humanToMove(),
    humanWhite: app.humanWhite,
    flipped: app.flipped,
  });
  renderStatus();
  renderMoves();
  const placing = v.status.placing && humanToMove() && !app.busy;
  $('place-rest').disabled = !placing;
  $('formation').disabled = !v.status.placing;
  $('take-back').disabled = app.busy || !app.moves.some((m) => m.white === app.humanWhite);
  document.body.classList.toggle('thinking', app.busy);
}

function sideName(white) {
  return app.info.game === 'sittuyin' ? (white ? 'Red (White)' : 'Black') : white ? 'White' : 'Black';
}

function renderStatus() {
  const v = app.view, s = v.status;
  const lines = [];
  if (v.result !== 'ongoing') {
    const winner = v.result === 'draw' ? 'Draw' : `${sideName(v.result === 'white-wins')} wins`;
    lines.push(`${winner} by ${REASONS[v.reason] || v.reason}.`);
  } else {
    const who = sideName(s.sideToMove === 0);
    const you = (s.sideToMove === 0) === app.humanWhite ? ' (you)' : '';
    lines.push(`${who}${you} to ${s.placing ? 'place a man' : 'move'}${app.busy && !you ? ': thinking...' : ''}`);
    if (s.inCheck) lines.push('Check!');
  }
  if (s.countingLimit > 0) {
    lines.push(`Counting: ${s.countingPly} of ${s.countingLimit} plies (${s.countingLimit / 2} moves) against ` +
               `${sideName(s.countingSide === 0)}'s bare king`);
  }
  if (s.rule50Limit > 0 && !s.placing) lines.push(`n-move rule: ${s.rule50} of ${s.rule50Limit} plies`);
  if (s.repetitions > 0) lines.push(`This position stood here ${s.repetitions} time${s.repetitions > 1 ? 's' : ''} before`);
  $('status').replaceChildren(...lines.map((l) => Object.assign(document.createElement('div'), { textContent: l })));
  $('game-over').hidden = v.result === 'ongoing';
  $('game-over').textContent = v.result === 'ongoing' ? '' : lines[0];
}

function renderMoves() {
  const list = $('moves');
  list.replaceChildren(...app.moves.map((m, i) => {
    const li = document.createElement('li');
    li.className = m.white ? 'white' : 'black';
    li.textContent = m.san;
    li.title = `ply ${i + 1}: ${m.uci}`;
    return li;
  }));
  list.scrollTop = list.scrollHeight;
}

// ---- the game

async function newGame(moves = []) {
  app.busy = true;
  const { view, sans } = await app.engine.call('newGame', {
    profile: app.profile,
    fen: app.fenParam,
    moves: moves.map((m) => m.uci),
  });
  if (!moves.length) {
    app.startFen = view.fen;
    app.seed = params.has('seed') ? BigInt.asUintN(64, BigInt(params.get('seed'))) : randomSeed();
    app.thinkTimes = [];
  }
  app.moves = moves.map((m, i) => ({ ...m, san: sans[i] }));
  app.view = view;
  app.busy = false;
  render();
}

async function play(uci) {
  const white = app.view.status.sideToMove === 0;
  const { san, view } = await app.engine.call('play', { move: uci });
  app.moves.push({ uci, san, white });
  app.view = view;
}

async function engineTurns() {
  while (app.view.result === 'ongoing' && !humanToMove()) {
    app.busy = true;
    render();
    const ply = app.moves.length;
    const { move, ms } = await app.engine.call('think', {
      ...levelChoice(),
      seed: BigInt.asUintN(64, app.seed * BigInt(ply + 1)),
    });
    app.thinkTimes.push({ ply, move, ms });
    await play(move);
  }
  app.busy = false;
  render();
  if (humanToMove() && !app.timings.firstMoveReady) app.timings.firstMoveReady = performance.now();
}

async function humanMove(uci) {
  if (app.busy || !humanToMove()) return;
  app.busy = true;
  try {
    await play(uci);
    await engineTurns();
  } catch (e) {
    showMessage(`The move ${uci} failed: ${e.message}`, 'error');
    app.busy = false;
    render();
  }
}

// "Place the rest": the player's remaining men by the chosen formation, or by the engine at the
// chosen level; the engine places its own as usual in between.
async function placeRest() {
  if (app.busy || !app.view.status.placing || !humanToMove()) return;
  app.busy = true;
  const formation = $('formation').value;
  let note = '';
  try {
    while (app.view.result === 'ongoing' && app.view.status.placing && humanToMove()) {
      let move = null;
      if (formation) {
        try {
          move = await app.engine.call('formationDrop', { formation });
        } catch (e) {
          note = `The formation cannot go on (${e.message}); the engine placed the rest.`;
        }
      }
      if (!move) {
        const ply = app.moves.length;
        move = (await app.engine.call('think', { ...levelChoice(), seed: BigInt.asUintN(64, app.seed * BigInt(ply + 1)) })).move;
      }
      await play(move);
      await engineTurns();
      app.busy = true;
    }
  } finally {
    app.busy = false;
    showMessage(note);
    render();
  }
}

async function takeBack() {
  if (app.busy) return;
  const moves = app.moves.slice();
  while (moves.length) {
    const m = moves.pop();
    if (m.white === app.humanWhite) break;
  }
  showMessage('');
  await newGame(moves);
  await engineTurns();
}

async function startGame() {
  app.profile = $('profile').value;
  app.humanWhite = $('side').value !== 'black';
  app.flipped = !app.humanWhite;
  showMessage('');
  try {
    await fillFormations();
    await newGame();
    await engineTurns();
  } catch (e) {
    app.busy = false;
    showMessage(`Cannot start the game: ${e.message}`, 'error');
  }
}

function downloadPgn() {
  const v = app.view;
  const human = 'You', engine = levelName();
  const text = toPgn({
    white: app.humanWhite ? human : engine,
    black: app.humanWhite ? engine : human,
    result: pgnResult(v.result),
    variant: app.info.game,
    profile: app.profile,
    startFen: app.startFen,
    endReason: v.reason,
    sans: app.moves.map((m) => m.san),
    date: pgnDate(),
  });
  app.lastPgn = text;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  link.download = `${app.profile}-${pgnDate().replaceAll('.', '')}.pgn`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// ---- the pickers

function option(value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  return o;
}

let urlPicks = true;  // the URL's profile, level and side apply to the first bundle opened

function fillPickers() {
  const profiles = $('profile');
  profiles.replaceChildren(...app.info.profiles.map((p) => option(p.id, p.source ? `${p.id} (${p.source})` : p.id)));
  if (urlPicks && params.has('profile')) profiles.value = params.get('profile');
  const levels = $('level');
  if (app.info.levels.length) {
    levels.replaceChildren(...app.info.levels.map((l) => option(String(l.level),
      `${l.level}: ${l.name}, ${Math.round(l.elo)} Elo [${Math.round(l.eloLower)}, ${Math.round(l.eloUpper)}]`)));
    levels.value = String(app.info.levels[app.info.levels.length - 1].level);  // the strongest
  } else {
    levels.replaceChildren(...SEARCH_LEVELS.map((n) => option(`sims:${n}`, `search, ${n} simulations (no measured Elo)`)));
    levels.value = `sims:${SEARCH_LEVELS[SEARCH_LEVELS.length - 1]}`;
  }
  if (urlPicks && params.has('level')) levels.value = params.get('level');
  if (urlPicks && params.has('side')) $('side').value = params.get('side');
  urlPicks = false;
}

async function fillFormations() {
  const select = $('formation');
  const allowed = await app.engine.call('formations', { profile: $('profile').value, list: app.formations });
  select.replaceChildren(option('', 'the engine chooses'),
                         ...allowed.filter((f) => !f.problem).map((f) => option(f.text, `${f.name}: ${f.text}`)));
  $('placement-tools').hidden = app.info.game !== 'sittuyin';
}

// ---- start

const board = new BoardView(
  { board: $('board'), handTop: $('hand-top'), handBottom: $('hand-bottom'), chooser: $('chooser') }, humanMove);

// The bundles of the folder (bundles.txt, written by scripts/export-web.sh: "FOLDER GAME" lines), for
// the game picker; none when the folder holds one bundle in bundle/.
async function loadBundleList() {
  try {
    const response = await fetch(new URL('bundles.txt', location.href));
    if (!response.ok) return [];
    return (await response.text()).split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
      .map((l) => ({ folder: l.split(/\s+/)[0], game: l.split(/\s+/)[1] || '' }));
  } catch {
    return [];
  }
}

// Opens the bundle in `folder` (relative to the page) and fills the pickers; throws the runtime's
// message.
async function openBundle(folder) {
  app.info = await app.engine.call('open', { url: new URL(folder, location.href).href });
  app.bundleFolder = folder;
  document.title = app.info.game === 'sittuyin' ? 'Sittuyin' : 'Shatranj';
  $('title').textContent = document.title;
  $('runtime-note').textContent = `runtime: WebAssembly ${app.runtime.simd ? 'with' : 'without'} SIMD, C API version ` +
    `${app.runtime.apiVersion}; bundle ${folder}: ${(app.info.bytes / 1024).toFixed(0)} KB` +
    (app.info.tables ? `, ${app.info.tables} endgame table files` : '');
  fillPickers();
}

function failed(e) {
  app.error = e.message;
  showMessage(`Cannot start: ${e.message}`, 'error');
  $('game-over').hidden = false;
  $('game-over').textContent = 'No game: the bundle could not be loaded (see the message).';
  document.body.classList.add('failed');
}

async function switchBundle() {
  if (app.busy) return;
  try {
    app.busy = true;
    app.fenParam = null;
    await openBundle($('game').value);
    app.busy = false;
    await startGame();
  } catch (e) {
    app.busy = false;
    failed(e);
  }
}

async function main() {
  showMessage('Loading the engine...');
  app.engine = new Engine(new URL('js/engine_worker.js', location.href));
  try {
    const simd = params.get('simd') === '0' ? false : undefined;
    const bundles = await loadBundleList();
    const games = $('game');
    games.replaceChildren(...bundles.map((b) => option(b.folder, `${b.game || b.folder} (${b.folder})`)));
    games.closest('label').hidden = bundles.length < 2;
    const folder = params.get('bundle') || (bundles.length ? bundles[0].folder : 'bundle/');
    games.value = folder;
    const init = await app.engine.call('init', { base: new URL('runtime/', location.href).href, simd });
    app.timings.runtime = performance.now();
    app.runtime = init;
    await openBundle(folder);
    app.timings.bundle = performance.now();
    app.formations = await loadFormations(new URL('formations.txt', location.href));
  } catch (e) {
    return failed(e);
  }
  showMessage('');
  $('game').addEventListener('change', switchBundle);
  $('new-game').addEventListener('click', () => !app.busy && startGame());
  $('take-back').addEventListener('click', takeBack);
  $('flip').addEventListener('click', () => ((app.flipped = !app.flipped), render()));
  $('pgn').addEventListener('click', downloadPgn);
  $('place-rest').addEventListener('click', placeRest);
  $('profile').addEventListener('change', () => !app.busy && startGame());
  $('side').addEventListener('change', () => !app.busy && startGame());
  await startGame();
}

main();
