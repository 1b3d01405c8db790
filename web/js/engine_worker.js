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
    bundle = await runtime.loadBundle(new URL(url, self.location.href), BUNDLE_DIR);
    return {
      game: bundle.game(), profiles: bundle.profiles(), levels: bundle.levels(), bytes: bundle.bytes,
      tables: bundle.tableFiles,
    };
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
