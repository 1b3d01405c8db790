// What the web tests (web_test.js) share: a static server for the page, headless Chromium driven
// by puppeteer-core, sittuyin-client over UCI, the native game check (web_game_check.cpp), and
// small assertions. Node.js only; puppeteer-core comes from WORK/npm (prepare.sh).
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const { spawn, execFileSync } = require('child_process');
const readline = require('readline');

const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.json': 'application/json', '.txt': 'text/plain', '.png': 'image/png',
};

// Serves `root` on a free port of 127.0.0.1, as any static server would.
function serve(root) {
  const server = http.createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url, 'http://localhost').pathname));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    fs.readFile(file, (err, data) => {
      if (err) return res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' }).end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Headless Chromium with the flags this machine needs (no sandbox as root, no background
// connections to a network that is closed), on a fresh profile.
async function launch(work) {
  const puppeteer = require(path.join(work, 'npm/node_modules/puppeteer-core'));
  const profile = fs.mkdtempSync(path.join(work, 'chromium-profile-'));
  const browser = await puppeteer.launch({
    executablePath: execFileSync('sh', ['-c', 'command -v chromium']).toString().trim(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`],
  });
  browser.profileDir = profile;  // removed by close()
  return browser;
}

async function close(browser) {
  await browser.close();
  try {
    fs.rmSync(browser.profileDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch (e) {
    console.log(`could not remove ${browser.profileDir}: ${e.message}`);
  }
}

// A page whose console errors and uncaught exceptions are collected (and printed).
async function openPage(browser, url) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 780 });
  page.problems = [];
  page.on('pageerror', (e) => {
    page.problems.push(e.message);
    console.log(`page error: ${e.message}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('404')) page.problems.push(m.text());
  });
  await page.goto(url);
  return page;
}

// sittuyin-client over UCI: send lines, wait for a line that starts with a prefix.
class UciClient {
  constructor(binary, bundle) {
    this.proc = spawn(binary, [bundle], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.lines = [];
    this.waiters = [];
    readline.createInterface({ input: this.proc.stdout }).on('line', (line) => {
      this.lines.push(line);
      this.wake();
    });
  }

  wake() {
    for (const w of this.waiters.splice(0)) {
      const i = this.lines.findIndex((l) => l.startsWith(w.prefix));
      if (i < 0) this.waiters.push(w);
      else w.resolve(this.lines.splice(0, i + 1));
    }
  }

  send(line) {
    this.proc.stdin.write(line + '\n');
  }

  // The lines up to and including the first that starts with `prefix`.
  until(prefix) {
    return new Promise((resolve) => {
      this.waiters.push({ prefix, resolve });
      this.wake();
    });
  }

  async start() {
    this.send('uci');
    await this.until('uciok');
  }

  close() {
    this.send('quit');
  }
}

// The native check of a game the page played (web_game_check.cpp).
function checkGame(env, { profile, startFen, moves, white, black, date, bundle = env.bundle }) {
  const file = path.join(env.work, `moves-${process.pid}.txt`);
  fs.writeFileSync(file, moves.map((m) => `${m.uci} ${m.san}\n`).join(''));
  let out;
  try {
    out = execFileSync(env.gameCheck, [bundle, profile, startFen, file, white, black, date]).toString();
  } catch (e) {
    out = e.stdout.toString();
  }
  const bad = out.split('\n').filter((l) => l.startsWith('bad '));
  const [, code, reason] = out.match(/^result (\d) (\S+)$/m);
  const pgn = out.slice(out.indexOf('pgn-begin\n') + 10, out.indexOf('pgn-end\n'));
  return { bad, result: ['ongoing', 'white-wins', 'black-wins', 'draw'][Number(code)], reason, pgn };
}

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) ++failures;
  return ok;
}
function failed() {
  return failures;
}

// A small seeded generator for the player's choices (xorshift).
function rng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

module.exports = { serve, launch, close, openPage, UciClient, checkGame, check, failed, rng };
