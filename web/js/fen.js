// Reading a FEN for display only: which man stands on which square and which men are in hand.
// Whether anything may move is the runtime's answer (the legal moves), never this file's.

export const FILES = 'abcdefgh';

export function squareName(file, rank) {
  return FILES[file] + String(rank + 1);
}

// { board: Map(square -> { letter, white }), hands: { white: {K: 1, ...}, black: {...} },
//   whiteToMove } for a FEN such as "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1".
export function parseFen(fen) {
  const [placement, side] = fen.split(' ');
  const bracket = placement.indexOf('[');
  const rows = (bracket < 0 ? placement : placement.slice(0, bracket)).split('/');
  const board = new Map();
  rows.forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (c >= '1' && c <= '8') {
        file += Number(c);
      } else {
        board.set(squareName(file, 7 - i), { letter: c.toUpperCase(), white: c === c.toUpperCase() });
        ++file;
      }
    }
  });
  const hands = { white: {}, black: {} };
  if (bracket >= 0) {
    for (const c of placement.slice(bracket + 1, placement.indexOf(']'))) {
      const hand = c === c.toUpperCase() ? hands.white : hands.black;
      hand[c.toUpperCase()] = (hand[c.toUpperCase()] || 0) + 1;
    }
  }
  return { board, hands, whiteToMove: side !== 'b' };
}

// A move's squares in UCI text: { from (null for a drop), to, drop (the letter), promotion }.
export function moveSquares(move) {
  if (move[1] === '@') return { from: null, to: move.slice(2, 4), drop: move[0], promotion: null };
  return { from: move.slice(0, 2), to: move.slice(2, 4), drop: null, promotion: move.length > 4 ? move[4] : null };
}
