// The page's engine: a module worker that owns the runtime (runtime.js), the bundle and the game,
// so that a search never freezes the page. engine.js sends {id, op, args}; each op answers with
// its result or an error message. After every change the game's whole view goes back (view()):
// the page keeps no rules of its own.
import { loadRuntime } from './runtime.js';

const BUNDLE_DIR = '/bundle';
let runtime = null;
let bundle = null;
let game = null;
let profile = null;

// The files of a bundle: model.json and model.onnx, and the endgame tables that tables.txt lists
// (written by scripts/export-web.sh; without it the tables are left out). A missing file is a
// message naming it.
async function fetchBundle(url) {
  const get = async (name, optional = false) => {
    let response;
    try {
      response = await fetch(new URL(name, url));
    } catch (e) {
      throw new Error(`${name}: cannot fetch (${e.message})`);
    }
    if (response.ok) return new Uint8Array(await response.arrayBuffer());
    if (optional) return null;
    throw new Error(`${name}: ${response.status} ${response.statusText || 'not found'} (is ${url} a bundle?)`);
  };
  const files = { 'model.json': await get('model.json'), 'model.onnx': await get('model.onnx') };
  const listing = await get('tables.txt', true);
  if (listing) {
    for (const name of new TextDecoder().decode(listing).split('\n').map((l) => l.trim())) {
      if (name && !name.startsWith('#')) files[name] = await get(name);
    }
  }
  return files;
}

function view() {
  const legal = game.legalMoves();
  return {
    fen: game.fen(),
    legal,
    status: game.status(),
    ...game.result(),
  };
}

const ops = {
  async init({ base, simd }) {
    const t0 = performance.now();
    runtime = await loadRuntime(new URL(base, self.location.href), simd === undefined ? {} : { simd });
    return { simd: runtime.simd, apiVersion: runtime.apiVersion, ms: performance.now() - t0 };
  },

  async open({ url }) {
    if (game) game.free(), (game = null);
    if (bundle) bundle.close(), (bundle = null);
    const files = await fetchBundle(new URL(url, self.location.href));
    runtime.removeTree(BUNDLE_DIR);
    let bytes = 0;
    for (const [name, data] of Object.entries(files)) {
      runtime.writeFile(`${BUNDLE_DIR}/${name}`, data);
      bytes += data.length;
    }
    bundle = runtime.openBundle(BUNDLE_DIR);
    const tables = Object.keys(files).filter((f) => f.startsWith('tables/')).length;
    return { game: bundle.game(), profiles: bundle.profiles(), levels: bundle.levels(), bytes, tables };
  },

  // Formations (the page's book) that either colour can place under `profile`, with the reasons
  // of those that cannot.
  formations({ profile: p, list }) {
    return list.map((f) => ({ ...f, problem: bundle.formationProblem(p, f.text) }));
  },

  // A new game under `profile` from `fen` (null: the start), with `moves` played (a take-back
  // replays the game up to a ply). Returns the view, and each move's SAN.
  newGame({ profile: p, fen = null, moves = [] }) {
    if (game) game.free();
    profile = p;
    game = bundle.newGame(p, fen);
    const sans = [];
    for (const m of moves) {
      sans.push(game.san(m));
      game.apply(m);
    }
    return { view: view(), sans };
  },

  play({ move }) {
    const san = game.san(move);
    game.apply(move);
    return { san, view: view() };
  },

  // The move of a level (level > 0) or of a plain search, not played, and the time it took.
  think({ level, simulations, temperature = 0, seed }) {
    const t0 = performance.now();
    const move = level > 0 ? game.bestMove(level, seed) : game.search(simulations, temperature, seed);
    return { move, ms: performance.now() - t0 };
  },

  formationDrop({ formation }) {
    return game.formationDrop(formation);
  },

  evaluate() {
    return game.evaluate();
  },

  // Positions per second: `simulations` of a plain search from each FEN, timed one by one.
  bench({ fens, simulations, seed, repeat = 1 }) {
    const runs = [];
    for (let r = 0; r < repeat; ++r) {
      for (const fen of fens) {
        const g = bundle.newGame(profile, fen);
        const t0 = performance.now();
        const move = g.search(simulations, 0, seed);
        runs.push({ fen, move, ms: performance.now() - t0 });
        g.free();
      }
    }
    return runs;
  },
};

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    if (!ops[op]) throw new Error(`unknown operation '${op}'`);
    if (op !== 'init' && !runtime) throw new Error('the runtime is not loaded');
    if (!['init', 'open'].includes(op) && !bundle) throw new Error('no bundle is open');
    if (!['init', 'open', 'formations', 'newGame', 'bench'].includes(op) && !game) throw new Error('no game');
    self.postMessage({ id, result: await ops[op](args || {}) });
  } catch (e) {
    self.postMessage({ id, error: e && e.message ? e.message : String(e) });
  }
};
