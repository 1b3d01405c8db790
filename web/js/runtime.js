// The game clients' runtime in the browser: client/sittuyin_client.h compiled to WebAssembly
// (web/CMakeLists.txt), wrapped for JavaScript. Everything about the rules and the search is the
// C API's answer; this file only moves text and numbers across. Used by engine_worker.js (the page
// runs it in a worker) and by bench.js.
//
//   const runtime = await loadRuntime(new URL('runtime/', location.href));
//   const bundle = await runtime.loadBundle(new URL('bundle/', location.href));
//   const game = bundle.newGame('sittuyin');
//   game.legalMoves(); game.apply('K@e2'); game.bestMove(level, seed); game.free();

export const MOVES_BUFFER = 2048;  // SZ_MOVES_BUFFER
export const MOVE_BUFFER = 16;     // SZ_MOVE_BUFFER
const ERROR_BUFFER = 1024;

// The smallest modules that use a v128 instruction and wasm exception handling (the probes of
// the wasm-feature-detect project): WebAssembly.validate says whether this browser has them.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);
const EXCEPTIONS_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11,
]);

export function hasWasmSimd() {
  return WebAssembly.validate(SIMD_PROBE);
}

// Loads the runtime from `baseUrl` (a folder with sittuyin_client[_simd].js and .wasm): the SIMD
// build where the browser has wasm SIMD and `simd` is not false, the other one elsewhere.
export async function loadRuntime(baseUrl, { simd = hasWasmSimd() } = {}) {
  if (!WebAssembly.validate(EXCEPTIONS_PROBE)) {
    throw new Error('this browser lacks WebAssembly exception handling (Chrome 95, Firefox 100, Safari 15.2 or later)');
  }
  const name = simd ? 'sittuyin_client_simd' : 'sittuyin_client';
  const { default: create } = await import(new URL(`${name}.js`, baseUrl).href);
  const module = await create({
    locateFile: (file) => new URL(file, baseUrl).href,
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
  });
  return new Runtime(module, simd);
}

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

// The C functions by name, with cwrap's types ('string' arguments are copied onto the stack).
const SIGNATURES = {
  sz_api_version: ['number', []],
  sz_bundle_open: ['number', ['string', 'number', 'number']],
  sz_bundle_close: [null, ['number']],
  sz_bundle_game: ['string', ['number']],
  sz_bundle_profile_count: ['number', ['number']],
  sz_bundle_profile: ['string', ['number', 'number']],
  sz_bundle_profile_source: ['string', ['number', 'number']],
  sz_bundle_level_count: ['number', ['number']],
  sz_bundle_level: ['number', ['number', 'number', 'number']],
  sz_bundle_check_formation: ['number', ['number', 'string', 'string', 'number', 'number']],
  sz_game_new: ['number', ['number', 'string', 'string', 'number', 'number']],
  sz_game_free: [null, ['number']],
  sz_game_apply: ['number', ['number', 'string', 'number', 'number']],
  sz_game_legal_moves: ['number', ['number', 'number', 'number']],
  sz_game_fen: ['string', ['number']],
  sz_game_status: ['number', ['number', 'number']],
  sz_game_san: ['number', ['number', 'string', 'number', 'number', 'number', 'number']],
  sz_game_result: ['number', ['number', 'number']],
  sz_game_search: ['number', ['number', 'number', 'number', 'bigint', 'number', 'number', 'number', 'number']],
  sz_game_best_move: ['number', ['number', 'number', 'bigint', 'number', 'number', 'number', 'number']],
  sz_game_formation_drop: ['number', ['number', 'string', 'number', 'number', 'number', 'number']],
  sz_game_evaluate: ['number', ['number', 'number', 'number', 'number']],
};

// The result codes of sz_game_result.
export const RESULTS = ['ongoing', 'white-wins', 'black-wins', 'draw'];

export class Runtime {
  constructor(module, simd) {
    this.module = module;
    this.simd = simd;
    this.c = {};
    for (const [name, [ret, args]] of Object.entries(SIGNATURES)) {
      // cwrap has no 'bigint' type: such an argument goes through as it is (-sWASM_BIGINT).
      this.c[name] = module.cwrap(name, ret, args.map((a) => (a === 'bigint' ? 'number' : a)));
    }
    this.error = module._malloc(ERROR_BUFFER);
    this.text = module._malloc(MOVES_BUFFER);
    this.scratch = module._malloc(64);  // sz_level, sz_status, sz_evaluation, a pointer
    this.apiVersion = this.c.sz_api_version();
  }

  // The message the last failing call wrote.
  lastError() {
    return this.module.UTF8ToString(this.error);
  }

  // Throws the C API's message when `code` (a count or 0) is negative: the call failed.
  check(code) {
    if (code < 0) throw new Error(this.lastError());
    return code;
  }

  // Writes `bytes` (a Uint8Array or text) to `path` in the runtime's in-memory file system.
  writeFile(path, bytes) {
    const dir = path.slice(0, path.lastIndexOf('/'));
    if (dir) this.module.FS.mkdirTree(dir);
    this.module.FS.writeFile(path, bytes);
  }

  removeTree(path) {
    const FS = this.module.FS;
    if (!FS.analyzePath(path).exists) return;
    for (const name of FS.readdir(path)) {
      if (name === '.' || name === '..') continue;
      const child = `${path}/${name}`;
      if (FS.isDir(FS.stat(child).mode)) this.removeTree(child);
      else FS.unlink(child);
    }
    FS.rmdir(path);
  }

  // Fetches the bundle at `url` (a folder's URL, ending in '/') into `dir` of the in-memory file
  // system and opens it: model.json, model.onnx, and the endgame tables that tables.txt lists
  // (scripts/export-web.sh writes it; without it the tables are left out). A file that cannot be
  // fetched, and a bundle the runtime refuses, throw a message naming the file.
  async loadBundle(url, dir = '/bundle') {
    const files = await fetchBundle(url);
    this.removeTree(dir);
    let bytes = 0;
    for (const [name, data] of Object.entries(files)) {
      this.writeFile(`${dir}/${name}`, data);
      bytes += data.length;
    }
    const bundle = this.openBundle(dir);
    bundle.bytes = bytes;
    bundle.tableFiles = Object.keys(files).filter((f) => f.startsWith('tables/')).length;
    return bundle;
  }

  // Opens the bundle whose files are in `dir` of the in-memory file system.
  openBundle(dir) {
    const handle = this.c.sz_bundle_open(dir, this.error, ERROR_BUFFER);
    if (!handle) throw new Error(this.lastError());
    return new Bundle(this, handle);
  }
}

export class Bundle {
  constructor(runtime, handle) {
    this.rt = runtime;
    this.handle = handle;
  }

  close() {
    this.rt.c.sz_bundle_close(this.handle);
    this.handle = 0;
  }

  game() {
    return this.rt.c.sz_bundle_game(this.handle);
  }

  profiles() {
    const c = this.rt.c, out = [];
    for (let i = 0; i < c.sz_bundle_profile_count(this.handle); ++i) {
      out.push({ id: c.sz_bundle_profile(this.handle, i), source: c.sz_bundle_profile_source(this.handle, i) });
    }
    return out;
  }

  // The levels, weakest first (sz_level: int, 2 pointers, int, float, padding, 3 doubles).
  levels() {
    const { c, module, scratch } = this.rt, out = [];
    for (let i = 0; i < c.sz_bundle_level_count(this.handle); ++i) {
      this.rt.check(c.sz_bundle_level(this.handle, i, scratch));
      out.push({
        level: module.getValue(scratch, 'i32'),
        name: module.UTF8ToString(module.getValue(scratch + 4, 'i32')),
        player: module.UTF8ToString(module.getValue(scratch + 8, 'i32')),
        simulations: module.getValue(scratch + 12, 'i32'),
        temperature: module.getValue(scratch + 16, 'float'),
        elo: module.getValue(scratch + 24, 'double'),
        eloLower: module.getValue(scratch + 32, 'double'),
        eloUpper: module.getValue(scratch + 40, 'double'),
      });
    }
    return out;
  }

  // Whether either colour can place `formation` under `profile`: null, or the C API's reason.
  formationProblem(profile, formation) {
    const code = this.rt.c.sz_bundle_check_formation(this.handle, profile, formation, this.rt.error, ERROR_BUFFER);
    return code === 0 ? null : this.rt.lastError();
  }

  newGame(profile = null, fen = null) {
    const handle = this.rt.c.sz_game_new(this.handle, profile, fen, this.rt.error, ERROR_BUFFER);
    if (!handle) throw new Error(this.rt.lastError());
    return new Game(this.rt, handle);
  }
}

export class Game {
  constructor(runtime, handle) {
    this.rt = runtime;
    this.handle = handle;
  }

  free() {
    this.rt.c.sz_game_free(this.handle);
    this.handle = 0;
  }

  legalMoves() {
    const n = this.rt.check(this.rt.c.sz_game_legal_moves(this.handle, this.rt.text, MOVES_BUFFER));
    const text = this.rt.module.UTF8ToString(this.rt.text);
    return n === 0 ? [] : text.split(' ');
  }

  fen() {
    return this.rt.c.sz_game_fen(this.handle);
  }

  // sz_status: ten ints.
  status() {
    const { module, scratch } = this.rt;
    this.rt.check(this.rt.c.sz_game_status(this.handle, scratch));
    const at = (i) => module.getValue(scratch + 4 * i, 'i32');
    return {
      sideToMove: at(0), placing: at(1) === 1, inCheck: at(2) === 1, ply: at(3), repetitions: at(4),
      rule50: at(5), rule50Limit: at(6), countingLimit: at(7), countingPly: at(8), countingSide: at(9),
    };
  }

  // { result: 'ongoing' | 'white-wins' | 'black-wins' | 'draw', reason }
  result() {
    const { module, scratch } = this.rt;
    const code = this.rt.c.sz_game_result(this.handle, scratch);
    return { result: RESULTS[code], reason: module.UTF8ToString(module.getValue(scratch, 'i32')) };
  }

  apply(move) {
    this.rt.check(this.rt.c.sz_game_apply(this.handle, move, this.rt.error, ERROR_BUFFER));
  }

  san(move) {
    const rt = this.rt;
    rt.check(rt.c.sz_game_san(this.handle, move, rt.text, MOVE_BUFFER, rt.error, ERROR_BUFFER));
    return rt.module.UTF8ToString(rt.text);
  }

  // The move a level of the bundle plays, not played; `seed` a BigInt or a number.
  bestMove(level, seed) {
    const rt = this.rt;
    rt.check(rt.c.sz_game_best_move(this.handle, level, BigInt.asUintN(64, BigInt(seed)), rt.text, MOVE_BUFFER,
                                    rt.error, ERROR_BUFFER));
    return rt.module.UTF8ToString(rt.text);
  }

  // The move MCTS over the network chooses with these settings, not played.
  search(simulations, temperature, seed) {
    const rt = this.rt;
    rt.check(rt.c.sz_game_search(this.handle, simulations, temperature, BigInt.asUintN(64, BigInt(seed)), rt.text,
                                 MOVE_BUFFER, rt.error, ERROR_BUFFER));
    return rt.module.UTF8ToString(rt.text);
  }

  formationDrop(formation) {
    const rt = this.rt;
    rt.check(rt.c.sz_game_formation_drop(this.handle, formation, rt.text, MOVE_BUFFER, rt.error, ERROR_BUFFER));
    return rt.module.UTF8ToString(rt.text);
  }

  // The network's win/draw/loss for the side to move, without search.
  evaluate() {
    const { module, scratch } = this.rt;
    this.rt.check(this.rt.c.sz_game_evaluate(this.handle, scratch, this.rt.error, ERROR_BUFFER));
    const at = (i) => module.getValue(scratch + 4 * i, 'float');
    return { win: at(0), draw: at(1), loss: at(2), movesLeft: at(3) };
  }
}
