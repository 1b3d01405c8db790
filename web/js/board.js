// The board and the men in hand, drawn from a FEN, and the player's moves by click or by drag.
// The legal moves come from the runtime; a square is a target only when one of them goes there,
// so a click never plays anything the rules core did not offer.
//
// Clicks: a man (on the board, or in hand while placing), then a target square. A pawn that may
// promote in place shows its own square as a target: clicking it again promotes it there; the
// squares of a promotion by a diagonal step are marked the same way. Drag: press a man, move it
// over a target, release.
import { FILES, moveSquares, parseFen, squareName } from './fen.js';

const GLYPHS = { K: '\u265A', F: '\u265B', Q: '\u265B', S: '\u265D', B: '\u265D', N: '\u265E', R: '\u265C', P: '\u265F\uFE0E' };
const NAMES = {
  sittuyin: { K: 'king', F: 'met', S: 'khon', N: 'knight', R: 'rook', P: 'pawn' },
  shatranj: { K: 'shah', Q: 'fers', B: 'alfil', N: 'horse', R: 'rukh', P: 'pawn' },
};
const HAND_ORDER = ['K', 'F', 'S', 'N', 'R', 'Q', 'B', 'P'];
const DRAG_THRESHOLD_PX = 5;

export class BoardView {
  // elements: { board, handTop, handBottom, chooser }; onMove(uci) plays a move of the player.
  constructor(elements, onMove) {
    this.el = elements;
    this.onMove = onMove;
    this.state = null;
    this.selected = null;  // { hand: letter } or { square }
    this.drag = null;
    this.suppressClick = false;
    this.buildSquares();
    this.el.board.addEventListener('click', (e) => this.onClick(e));
    for (const hand of [this.el.handTop, this.el.handBottom]) hand.addEventListener('click', (e) => this.onClick(e));
    for (const root of [this.el.board, this.el.handTop, this.el.handBottom]) {
      root.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    }
    window.addEventListener('pointermove', (e) => this.onPointerMove(e));
    window.addEventListener('pointerup', (e) => this.onPointerUp(e));
  }

  buildSquares() {
    this.squares = new Map();
    for (let rank = 0; rank < 8; ++rank) {
      for (let file = 0; file < 8; ++file) {
        const sq = document.createElement('div');
        const name = squareName(file, rank);
        sq.className = `square ${(file + rank) % 2 ? 'light' : 'dark'}`;
        sq.dataset.square = name;
        this.squares.set(name, sq);
        this.el.board.appendChild(sq);
      }
    }
    // Sittuyin's board has its two long diagonals drawn: the squares where a pawn may promote.
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('class', 'diagonals');
    svg.setAttribute('viewBox', '0 0 8 8');
    svg.innerHTML = '<line x1="0" y1="0" x2="8" y2="8"/><line x1="8" y1="0" x2="0" y2="8"/>';
    this.el.board.appendChild(svg);
  }

  // state: { fen, legal, game, lastMove, inCheck, interactive, humanWhite, flipped }
  render(state) {
    this.state = state;
    const position = parseFen(state.fen);
    this.position = position;
    this.el.board.classList.toggle('flipped', state.flipped);
    this.el.board.classList.toggle('sittuyin', state.game === 'sittuyin');
    for (const [name, sq] of this.squares) {
      const file = FILES.indexOf(name[0]), rank = Number(name[1]) - 1;
      const row = state.flipped ? rank : 7 - rank, col = state.flipped ? 7 - file : file;
      sq.style.gridRow = String(row + 1);
      sq.style.gridColumn = String(col + 1);
      sq.replaceChildren();
      const man = position.board.get(name);
      if (man) sq.appendChild(this.manElement(man.letter, man.white));
      sq.classList.remove('last', 'check', 'selected', 'target', 'promote', 'capture');
    }
    if (state.lastMove) {
      const m = moveSquares(state.lastMove);
      if (m.from) this.squares.get(m.from).classList.add('last');
      this.squares.get(m.to).classList.add('last');
    }
    if (state.inCheck) {
      for (const [name, man] of position.board) {
        if (man.letter === 'K' && man.white === position.whiteToMove) this.squares.get(name).classList.add('check');
      }
    }
    this.renderHands(position);
    if (this.selected && this.targets().size === 0) this.selected = null;
    this.showSelection();
  }

  manElement(letter, white) {
    const span = document.createElement('span');
    span.className = `man ${white ? 'white' : 'black'}`;
    span.textContent = GLYPHS[letter] || letter;
    const name = (NAMES[this.state.game] || NAMES.sittuyin)[letter] || letter;
    span.title = `${white ? 'White' : 'Black'} ${name}`;
    span.dataset.man = white ? letter : letter.toLowerCase();
    return span;
  }

  renderHands(position) {
    const top = this.state.flipped ? position.hands.white : position.hands.black;
    const bottom = this.state.flipped ? position.hands.black : position.hands.white;
    this.renderHand(this.el.handTop, top, this.state.flipped);
    this.renderHand(this.el.handBottom, bottom, !this.state.flipped);
  }

  renderHand(element, hand, white) {
    element.replaceChildren();
    for (const letter of HAND_ORDER) {
      if (!hand[letter]) continue;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'in-hand';
      button.dataset.hand = letter;
      button.dataset.color = white ? 'white' : 'black';
      button.appendChild(this.manElement(letter, white));
      if (hand[letter] > 1) {
        const count = document.createElement('span');
        count.className = 'count';
        count.textContent = String(hand[letter]);
        button.appendChild(count);
      }
      element.appendChild(button);
    }
  }

  // The player's moves from the selection (or from `pick`), by target square.
  targets(pick = this.selected) {
    const out = new Map();
    if (!pick || !this.state || !this.state.interactive) return out;
    for (const move of this.state.legal) {
      const m = moveSquares(move);
      const mine = pick.hand ? m.drop === pick.hand : m.from === pick.square;
      if (!mine) continue;
      if (!out.has(m.to)) out.set(m.to, []);
      out.get(m.to).push(move);
    }
    return out;
  }

  showSelection() {
    for (const sq of this.squares.values()) sq.classList.remove('selected', 'target', 'promote', 'capture');
    for (const b of document.querySelectorAll('.in-hand.selected')) b.classList.remove('selected');
    if (!this.selected) return;
    if (this.selected.square) this.squares.get(this.selected.square).classList.add('selected');
    if (this.selected.hand) {
      const mine = this.state.humanWhite ? 'white' : 'black';
      const button = document.querySelector(
        `.in-hand[data-hand="${this.selected.hand}"][data-color="${mine}"]`);
      if (button) button.classList.add('selected');
    }
    for (const [to, moves] of this.targets()) {
      const sq = this.squares.get(to);
      sq.classList.add('target');
      if (moves.some((m) => moveSquares(m).promotion)) sq.classList.add('promote');
      if (this.position.board.has(to) && to !== this.selected.square) sq.classList.add('capture');
    }
  }

  // The man the player may pick at an element: { square } or { hand }, or null.
  pickable(element) {
    if (!this.state || !this.state.interactive) return null;
    const hand = element.closest('.in-hand');
    if (hand) {
      const mine = (hand.dataset.color === 'white') === this.state.humanWhite;
      return mine ? { hand: hand.dataset.hand } : null;
    }
    const sq = element.closest('.square');
    if (!sq) return null;
    const man = this.position.board.get(sq.dataset.square);
    return man && man.white === this.state.humanWhite ? { square: sq.dataset.square } : null;
  }

  same(a, b) {
    return !!a && !!b && a.hand === b.hand && a.square === b.square;
  }

  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    if (!this.state || !this.state.interactive) return;
    const sq = event.target.closest('.square');
    const targets = this.targets();
    if (sq && targets.has(sq.dataset.square)) return this.play(targets.get(sq.dataset.square));
    const pick = this.pickable(event.target);
    this.selected = pick && !this.same(pick, this.selected) && this.targets(pick).size ? pick : null;
    this.showSelection();
  }

  play(moves) {
    this.selected = null;
    this.showSelection();
    if (moves.length === 1) return this.onMove(moves[0]);
    this.choose(moves);
  }

  // Several moves to one square (a promotion or not): the player picks one.
  choose(moves) {
    const chooser = this.el.chooser;
    chooser.replaceChildren();
    for (const move of moves) {
      const button = document.createElement('button');
      button.type = 'button';
      const m = moveSquares(move);
      button.textContent = m.promotion ? `promote (${move})` : `move (${move})`;
      button.dataset.move = move;
      button.addEventListener('click', () => {
        chooser.hidden = true;
        this.onMove(move);
      });
      chooser.appendChild(button);
    }
    chooser.hidden = false;
  }

  onPointerDown(event) {
    if (event.button !== 0) return;
    const pick = this.pickable(event.target);
    if (!pick || !this.targets(pick).size) return;
    this.drag = { pick, x: event.clientX, y: event.clientY, ghost: null };
  }

  onPointerMove(event) {
    const d = this.drag;
    if (!d) return;
    if (!d.ghost) {
      if (Math.hypot(event.clientX - d.x, event.clientY - d.y) < DRAG_THRESHOLD_PX) return;
      this.selected = d.pick;
      this.showSelection();
      const source = d.pick.hand
        ? document.querySelector(`.in-hand.selected .man`)
        : this.squares.get(d.pick.square).querySelector('.man');
      if (!source) return;
      d.ghost = source.cloneNode(true);
      d.ghost.classList.add('ghost');
      d.ghost.style.fontSize = getComputedStyle(this.squares.get('a1')).fontSize;
      document.body.appendChild(d.ghost);
      source.classList.add('dragging');
    }
    d.ghost.style.left = `${event.clientX}px`;
    d.ghost.style.top = `${event.clientY}px`;
  }

  onPointerUp(event) {
    const d = this.drag;
    this.drag = null;
    if (!d || !d.ghost) return;
    d.ghost.remove();
    for (const man of document.querySelectorAll('.man.dragging')) man.classList.remove('dragging');
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const sq = under && under.closest('.square');
    const targets = this.targets();
    if (sq && sq.dataset.square !== d.pick.square && targets.has(sq.dataset.square)) {
      this.play(targets.get(sq.dataset.square));
    }
  }
}
