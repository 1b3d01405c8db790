// bench.html: positions per second of the search in this browser, on fixed positions, for a
// comparison with the native client (tests/web/web_test.js prints both). The result is also left in
// window.szBench for a driver.
import { Engine } from './engine.js';

// The start, and positions after complete formations (configs/suites/starts-full.epd).
export const BENCH_FENS = [
  '',
  'f3r2r/3ksns1/3npppp/pppp4/4PPPP/PPPPN1N1/3K2FS/RRS5[] w - - 0 9',
  'n2srr1f/1s4kn/4pppp/pppp4/4PPPP/PPPP4/1KNS1F2/S3RRN1[] w - - 0 9',
  '3krr2/n3ns1s/1f2pppp/pppp4/4PPPP/PPPPKN2/2SN4/R1S1RF2[] w - - 0 9',
  '2k2rr1/sf1n4/2nspppp/pppp4/4PPPP/PPPP2S1/SK4N1/2R1RN1F[] w - - 0 9',
];
// The UCI engine's first seed (src/uci/uci_engine.cpp), so that the moves are sittuyin-client's.
export const UCI_SEED = 0x9e3779b97f4a7c15n;

async function main() {
  const params = new URLSearchParams(location.search);
  const out = document.getElementById('out');
  const simulations = Number(params.get('simulations') || 800);
  const repeat = Number(params.get('repeat') || 3);
  const engine = new Engine(new URL('js/engine_worker.js', location.href));
  try {
    const simd = params.get('simd') === '0' ? false : undefined;
    const init = await engine.call('init', { base: new URL('runtime/', location.href).href, simd });
    const bundle = await engine.call('open', { url: new URL(params.get('bundle') || 'bundle/', location.href).href });
    out.textContent = `runtime ${init.simd ? 'with' : 'without'} wasm SIMD, loaded in ${init.ms.toFixed(0)} ms\n`;
    const runs = await engine.call('bench', { fens: BENCH_FENS, simulations, seed: UCI_SEED, repeat });
    // Per position the fastest of its repeats (the least disturbed by the rest of the machine).
    const best = new Map();
    for (const r of runs) if (!best.has(r.fen) || r.ms < best.get(r.fen).ms) best.set(r.fen, r);
    let ms = 0;
    for (const r of best.values()) {
      ms += r.ms;
      out.textContent += `${(r.fen || 'start').padEnd(70)} ${r.move.padEnd(6)} ${r.ms.toFixed(1)} ms\n`;
    }
    const nps = (simulations * best.size) / (ms / 1000);
    out.textContent += `${simulations} simulations a position, ${best.size} positions: ${nps.toFixed(0)} positions per second\n`;
    window.szBench = { simd: init.simd, simulations, runs: [...best.values()], nps, profiles: bundle.profiles };
  } catch (e) {
    out.textContent = `failed: ${e.message}`;
    window.szBench = { error: e.message };
  }
}

main();
