// The web client in headless Chromium (tests/web/CMakeLists.txt, label web):
//
//   node web_test.js NAME   with WORK, SZ_CLIENT_BINARY, SZ_WEB_GAME_CHECK, SZ_BINARY set
//
//   page         a full game through clicks and drags (placement included) against the strongest
//                level: its first move ready within 2 s, every move legal by the C++ rules core
//                with its SAN, the end and its reason, the PGN the project's writer writes,
//                sittuyin-client's moves at the same seeds, at most 1 s a move, take back, flip,
//                a screenshot kept (WORK/artefacts)
//   bad_bundles  a missing model.onnx, a truncated one, a format from the future: a message
//   speed        positions per second of bench.html against sittuyin-client on the same
//                positions (printed; the same moves), with and without wasm SIMD
//   profiles     every rule profile: placement by "place the rest" with a formation, a
//                promotion in place by clicks, and a Shatranj bundle beside (the game picker)
//   embed        docs/CLIENTS.md's JavaScript example, run as a module in a page
//
// Exits 77 (skipped) when prepare.sh could not make the page, naming what is missing.
'use strict';
const fs = require('fs');
const path = require('path');
const { serve, launch, close, openPage, UciClient, checkGame, check, failed, rng } = require('./harness.js');

const env = {
  work: process.env.WORK,
  client: process.env.SZ_CLIENT_BINARY,
  gameCheck: process.env.SZ_WEB_GAME_CHECK,
  binary: process.env.SZ_BINARY,
};
env.site = path.join(env.work, 'site');
env.bundle = path.join(env.site, 'bundle');
env.artefacts = path.join(env.work, 'artefacts');
const UCI_SEED = '11400714819323198485';  // 0x9E3779B97F4A7C15: sittuyin-client's first seed
const BENCH_FENS = [  // as web/js/bench.js
  '',
  'f3r2r/3ksns1/3npppp/pppp4/4PPPP/PPPPN1N1/3K2FS/RRS5[] w - - 0 9',
  'n2srr1f/1s4kn/4pppp/pppp4/4PPPP/PPPP4/1KNS1F2/S3RRN1[] w - - 0 9',
  '3krr2/n3ns1s/1f2pppp/pppp4/4PPPP/PPPPKN2/2SN4/R1S1RF2[] w - - 0 9',
  '2k2rr1/sf1n4/2nspppp/pppp4/4PPPP/PPPP2S1/SK4N1/2R1RN1F[] w - - 0 9',
];

const idle = (page) => page.waitForFunction('window.sz && window.sz.view && !window.sz.busy', { timeout: 120000 });
const state = (page) => page.evaluate(() => ({
  view: window.sz.view, moves: window.sz.moves, thinkTimes: window.sz.thinkTimes, timings: window.sz.timings,
  startFen: window.sz.startFen, profile: window.sz.profile, error: window.sz.error,
}));

// Plays `move` (UCI) as a player would: a click on the man (or the man in hand), then on the
// target; by drag when `drag`.
async function playByHand(page, move, drag) {
  const drop = move[1] === '@';
  const from = drop ? `.in-hand[data-hand="${move[0]}"][data-color="${await page.evaluate(
    () => (window.sz.humanWhite ? 'white' : 'black'))}"]` : `[data-square="${move.slice(0, 2)}"]`;
  const to = `[data-square="${drop ? move.slice(2, 4) : move.slice(2, 4)}"]`;
  if (drag) {
    const a = await (await page.$(from)).boundingBox(), b = await (await page.$(to)).boundingBox();
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 2 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
    await page.mouse.up();
  } else {
    await page.click(from);
    await page.click(to);
  }
}

async function screenshot(page, name) {
  fs.mkdirSync(env.artefacts, { recursive: true });
  const file = path.join(env.artefacts, name);
  await (await page.$('#play-area')).screenshot({ path: file });
  console.log(`screenshot: ${file}`);
}

// ---- page: a full game

async function testPage(browser, base) {
  const page = await openPage(browser, `${base}/index.html?seed=${UCI_SEED}&side=white`);
  await idle(page);
  let s = await state(page);
  check(s.timings.firstMoveReady <= 2000, `first move ready ${s.timings.firstMoveReady.toFixed(0)} ms after the page ` +
        `began loading (runtime ${s.timings.runtime.toFixed(0)} ms, bundle ${s.timings.bundle.toFixed(0)} ms), at most 2000`);
  // What a browser with wasm SIMD downloads before the bundle: the runtime and the page's own files.
  const sizeOf = (f) => fs.statSync(path.join(env.site, f)).size;
  const pageFiles = ['runtime/sittuyin_client_simd.wasm', 'runtime/sittuyin_client_simd.js', 'index.html', 'style.css',
                     ...fs.readdirSync(path.join(env.site, 'js')).filter((f) => f !== 'bench.js').map((f) => `js/${f}`)];
  const pageBytes = pageFiles.reduce((sum, f) => sum + sizeOf(f), 0);
  check(pageBytes <= 1 << 20, `the page's wasm, JavaScript, HTML and CSS: ${(pageBytes / 1024).toFixed(0)} KiB ` +
        `(runtime ${((sizeOf(pageFiles[0]) + sizeOf(pageFiles[1])) / 1024).toFixed(0)} KiB), at most 1024`);
  const levels = await page.evaluate(() => window.sz.info.levels);
  const strongest = levels[levels.length - 1];
  check(await page.$eval('#level', (e) => e.selectedOptions[0].textContent.includes('Elo')), 'the level picker shows Elo');

  const pick = rng(2024);
  let humanMoves = 0;
  while (s.view.result === 'ongoing' && s.moves.length < 1500) {
    const legal = s.view.legal;
    const move = legal[pick(legal.length)];
    await playByHand(page, move, humanMoves % 4 === 3);
    await idle(page);
    const after = await state(page);
    if (!check(after.moves.length > s.moves.length && after.moves[s.moves.length].uci === move,
               `ply ${s.moves.length + 1}: ${move} played by ${humanMoves % 4 === 3 ? 'drag' : 'clicks'}`)) break;
    ++humanMoves;
    if (after.view.status.placing === false && s.view.status.placing) await screenshot(page, 'board-after-placement.png');
    s = after;
  }
  await screenshot(page, 'board-end.png');
  check(s.view.result !== 'ongoing', `the game ended after ${s.moves.length} plies: ${s.view.result} by ${s.view.reason}`);
  const shown = await page.$eval('#game-over', (e) => (e.hidden ? '' : e.textContent));
  check(shown.length > 0, `the page shows the end: "${shown}"`);
  check((await page.$$('#moves li')).length === s.moves.length, 'the move list shows every move');

  // The C++ rules core on every move, its SAN, the end, and the project's PGN.
  await page.click('#pgn');
  const pgn = await page.evaluate(() => window.sz.lastPgn);
  const tags = Object.fromEntries([...pgn.matchAll(/^\[(\w+) "(.*)"\]$/gm)].map((m) => [m[1], m[2]]));
  check(tags.Variant === 'sittuyin' && tags.FEN === s.startFen, `the PGN has Variant "${tags.Variant}" and FEN tags`);
  const native = checkGame(env, { profile: s.profile, startFen: s.startFen, moves: s.moves,
                                  white: tags.White, black: tags.Black, date: tags.Date });
  check(native.bad.length === 0, `every move is legal by the rules core with the SAN shown ${native.bad.join('; ')}`);
  check(native.result === s.view.result && native.reason === s.view.reason,
        `the end is the rules core's: ${native.result} by ${native.reason}`);
  check(native.pgn === pgn, 'the PGN is the one the project\'s writer (eval/pgn.h) writes');
  if (native.pgn !== pgn) console.log(`page:\n${pgn}\nnative:\n${native.pgn}`);

  // sittuyin-client, at the strongest level's visits, from the same positions with the same seeds.
  const uci = new UciClient(env.client, env.bundle);
  await uci.start();
  let games = 0, same = 0, tables = 0, slowest = 0;
  for (const t of s.thinkTimes) {
    slowest = Math.max(slowest, t.ms);
    for (; games < t.ply; ++games) uci.send('ucinewgame');
    uci.send('isready');
    await uci.until('readyok');
    uci.send(`position startpos moves ${s.moves.slice(0, t.ply).map((m) => m.uci).join(' ')}`);
    uci.send(`go nodes ${strongest.simulations}`);
    const lines = await uci.until('bestmove');
    const best = lines[lines.length - 1].split(' ')[1];
    if (lines.some((l) => l.includes('endgame tables'))) {
      ++tables;  // sittuyin-client plays the first of the tables' best moves, the C API any of them
      continue;
    }
    if (best === t.move) ++same;
    else check(false, `ply ${t.ply + 1}: the page played ${t.move}, sittuyin-client ${best}`);
  }
  uci.close();
  const searched = s.thinkTimes.length - tables;
  check(same === searched, `the page played sittuyin-client's move at all ${searched} searched plies ` +
        `(level ${strongest.level}, ${strongest.simulations} visits; ${tables} plies answered by the tables)`);
  check(slowest <= 1000, `the strongest level thought at most ${slowest.toFixed(0)} ms a move (at most 1000)`);

  // Take back to the player's last move, and flip.
  await page.click('#take-back');
  await idle(page);
  const back = await state(page);
  const kept = s.moves.slice(0, back.moves.length).map((m) => m.uci).join(' ');
  check(back.moves.length < s.moves.length && back.moves.map((m) => m.uci).join(' ') === kept &&
        back.view.result === 'ongoing', `take back: ${s.moves.length} -> ${back.moves.length} plies, the game goes on`);
  const flipped = await page.$eval('#board', (e) => e.classList.contains('flipped'));
  await page.click('#flip');
  check(await page.$eval('#board', (e) => e.classList.contains('flipped')) !== flipped, 'flip turns the board');
  check(page.problems.length === 0, `no errors in the page ${page.problems.join('; ')}`);
}

// ---- bad bundles

async function testBadBundles(browser, base) {
  const bad = path.join(env.site, 'bad');
  fs.rmSync(bad, { recursive: true, force: true });
  const variant = (name, edit) => {
    const dir = path.join(bad, name);
    fs.mkdirSync(dir, { recursive: true });
    for (const f of ['model.json', 'model.onnx']) fs.copyFileSync(path.join(env.bundle, f), path.join(dir, f));
    edit(dir);
  };
  variant('missing', (dir) => fs.rmSync(path.join(dir, 'model.onnx')));
  variant('truncated', (dir) => fs.truncateSync(path.join(dir, 'model.onnx'), 1000));
  variant('future', (dir) => {
    const file = path.join(dir, 'model.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"format_version": 2,', '"format_version": 99,'));
  });
  const cases = {
    missing: 'model.onnx: 404',
    truncated: 'model.onnx: not a complete ONNX model',
    future: "'format_version' is 99, but this runtime reads version 2",
  };
  for (const [name, expected] of Object.entries(cases)) {
    const page = await openPage(browser, `${base}/index.html?bundle=bad/${name}/`);
    await page.waitForFunction('window.sz && window.sz.error', { timeout: 60000 });
    const message = await page.$eval('#message', (e) => (e.hidden ? '' : e.textContent));
    check(message.includes(expected), `${name}: the page says "${message}"`);
    if (name === 'truncated') await screenshot(page, 'bad-bundle.png');
    await page.close();
  }
}

// ---- speed

// sittuyin-client on the bench positions: per position the fastest of `repeat` searches.
async function nativeBench(simulations, repeat) {
  const uci = new UciClient(env.client, env.bundle);
  await uci.start();
  const best = new Map();
  for (let r = 0; r < repeat; ++r) {
    for (const fen of BENCH_FENS) {  // consecutive positions differ: every search starts afresh
      uci.send(fen ? `position fen ${fen}` : 'position startpos');
      const t0 = process.hrtime.bigint();
      uci.send(`go nodes ${simulations}`);
      const lines = await uci.until('bestmove');
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const move = lines[lines.length - 1].split(' ')[1];
      if (!best.has(fen) || ms < best.get(fen).ms) best.set(fen, { fen, move, ms });
    }
  }
  uci.close();
  return [...best.values()];
}

async function browserBench(browser, base, simulations, repeat, simd) {
  const page = await openPage(browser, `${base}/bench.html?simulations=${simulations}&repeat=${repeat}${simd ? '' : '&simd=0'}`);
  await page.waitForFunction('window.szBench', { timeout: 600000 });
  const result = await page.evaluate(() => window.szBench);
  await page.close();
  if (result.error) throw new Error(result.error);
  return result;
}

async function testSpeed(browser, base) {
  const simulations = 800, repeat = 3;
  const web = await browserBench(browser, base, simulations, repeat, true);
  const native = await nativeBench(simulations, repeat);
  const nps = (runs) => (simulations * runs.length) / (runs.reduce((a, r) => a + r.ms, 0) / 1000);
  for (const n of native) {
    const w = web.runs.find((r) => r.fen === n.fen);
    console.log(`${(n.fen || 'start').padEnd(68)} native ${n.move.padEnd(6)} ${n.ms.toFixed(0).padStart(5)} ms` +
                `   browser ${w.move.padEnd(6)} ${w.ms.toFixed(0).padStart(5)} ms`);
    check(w.move === n.move, `the same move from ${n.fen || 'the start'}`);
  }
  const ratio = web.nps / nps(native);
  console.log(`positions per second at ${simulations} visits: native ${nps(native).toFixed(0)}, browser ` +
              `${web.nps.toFixed(0)} (wasm SIMD: ${web.simd}): ${(100 * ratio).toFixed(0)}% (target: at least 50%)`);
  check(web.simd === true, 'Chromium runs the SIMD build');
  check(ratio >= 0.5, `the browser searches at ${(100 * ratio).toFixed(0)}% of the native client's speed (at least 50%)`);
  const scalar = await browserBench(browser, base, 200, 1, false);
  console.log(`without wasm SIMD: ${scalar.nps.toFixed(0)} positions per second at 200 visits`);
  check(scalar.simd === false && scalar.runs.length === BENCH_FENS.length, 'the build without SIMD loads and searches');
}

// ---- profiles

async function testProfiles(browser, base) {
  const profiles = JSON.parse(fs.readFileSync(path.join(env.bundle, 'model.json'), 'utf8')).profiles.map((p) => p.id);
  for (const profile of profiles) {
    const page = await openPage(browser, `${base}/index.html?profile=${profile}&level=2&side=black&seed=7`);
    await idle(page);
    const formations = await page.$$eval('#formation option', (o) => o.map((x) => x.value).filter(Boolean));
    if (!check(formations.length > 0, `${profile}: ${formations.length} formations offered`)) continue;
    await page.select('#formation', formations[0]);
    await page.click('#place-rest');
    await idle(page);
    const s = await state(page);
    // Black's men in its own frame (square s stands on 63 - s) must be the formation's.
    const board = s.view.fen.split(/[[ ]/)[0].split('/');
    const black = [];
    board.forEach((row, i) => {
      let file = 0;
      for (const c of row) {
        if (/\d/.test(c)) file += Number(c);
        else {
          if (c !== c.toUpperCase() && c !== 'p') {
            const sq = 63 - ((7 - i) * 8 + file);
            black.push(`${c.toUpperCase()}@${'abcdefgh'[sq % 8]}${1 + Math.floor(sq / 8)}`);
          }
          ++file;
        }
      }
    });
    const want = formations[0].split(' ').sort().join(' ');
    check(!s.view.status.placing && black.sort().join(' ') === want,
          `${profile}: placement over, Black's men are the formation ${want}`);
    await page.close();
  }

  // A pawn that may promote in place: click it, click it again.
  const fen = encodeURIComponent('7k/8/5P2/8/8/8/R7/K7[] w - - 0 1');
  const page = await openPage(browser, `${base}/index.html?fen=${fen}&side=white&level=1&seed=3`);
  await idle(page);
  await page.click('[data-square="f6"]');
  const marked = await page.$eval('[data-square="f6"]', (e) => e.classList.contains('promote'));
  await page.click('[data-square="f6"]');
  await idle(page);
  const s = await state(page);
  check(marked && s.moves[0].uci === 'f6f6f' && s.moves[0].san.startsWith('f6=F'),
        `promotion in place by clicks: ${s.moves[0].uci} (${s.moves[0].san})`);
  await screenshot(page, 'promotion.png');

  // The folder's second bundle, Shatranj (no levels: plain searches), by the game picker.
  const games = await page.$$eval('#game option', (o) => o.map((x) => x.value));
  check(games.join(' ') === 'bundle/ shatranj/', `the game picker offers ${games.join(' ')}`);
  await page.select('#game', 'shatranj/');
  await page.waitForFunction(() => window.sz.info.game === 'shatranj' && window.sz.view.status.ply === 0 &&
                             !window.sz.busy && window.sz.profile === 'shatranj', { timeout: 60000 });
  const levels = await page.$$eval('#level option', (o) => o.map((x) => x.value));
  check(levels.join(' ') === 'sims:64 sims:256 sims:800', `Shatranj without levels offers searches: ${levels}`);
  await page.select('#level', 'sims:64');
  const pick = rng(99);
  let t = await state(page);
  for (let ply = 0; ply < 12 && t.view.result === 'ongoing'; ply += 2) {
    await playByHand(page, t.view.legal[pick(t.view.legal.length)], ply % 4 === 2);
    await idle(page);
    t = await state(page);
  }
  await screenshot(page, 'shatranj.png');
  const native = checkGame(env, { profile: 'shatranj', startFen: t.startFen, moves: t.moves, white: 'w', black: 'b',
                                  date: '?', bundle: path.join(env.site, 'shatranj') });
  check(t.moves.length >= 10 && native.bad.length === 0 && native.result === t.view.result,
        `Shatranj: ${t.moves.length} plies by clicks and drags, legal by the rules core ${native.bad.join('; ')}`);
  check(page.problems.length === 0, `no errors in the page ${page.problems.join('; ')}`);
  await page.close();
}

// ---- docs/CLIENTS.md's example of the wasm module, as it stands in the document

async function testEmbed(browser, base) {
  const doc = fs.readFileSync(path.join(__dirname, '../../docs/CLIENTS.md'), 'utf8');
  const begin = doc.indexOf('```js\n') + 6;
  const example = doc.slice(begin, doc.indexOf('```', begin));
  fs.writeFileSync(path.join(env.site, 'js/doc_example.js'), example);
  fs.writeFileSync(path.join(env.site, 'doc-example.html'),
                   '<!doctype html><meta charset="utf-8"><script type="module" src="js/doc_example.js"></script>');
  const page = await browser.newPage();
  const logged = [], errors = [];
  page.on('console', (m) => {
    if (m.type() === 'log') logged.push(m.text());
    else if (!m.text().includes('404')) errors.push(m.text());  // the browser asks for a favicon
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/doc-example.html`);
  for (let i = 0; i < 600 && !logged.length && !errors.length; ++i) await new Promise((r) => setTimeout(r, 100));
  check(logged.length === 1 && errors.length === 0, `the example ran: ${logged.concat(errors).join(' | ')}`);
  await page.close();
}

async function main() {
  const name = process.argv[2];
  const tests = {
    page: testPage, bad_bundles: testBadBundles, speed: testSpeed, profiles: testProfiles, embed: testEmbed,
  };
  if (!tests[name]) throw new Error(`no test '${name}' (${Object.keys(tests).join(', ')})`);
  if (!fs.existsSync(path.join(env.work, 'ready'))) {
    const why = fs.existsSync(path.join(env.work, 'not-ready'))
      ? fs.readFileSync(path.join(env.work, 'not-ready'), 'utf8').trim() : 'prepare.sh did not run';
    console.log(`SKIPPED: the web client is not prepared: ${why}`);
    process.exit(77);
  }
  const server = await serve(env.site);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launch(env.work);
  try {
    await tests[name](browser, base);
  } finally {
    await close(browser);
    server.close();
  }
  console.log(failed() ? `${failed()} check(s) failed` : 'all checks passed');
  process.exit(failed() ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
