// A game as PGN, laid out as the project's own writer does it (src/eval/pgn.cpp: the seven tags,
// Variant and the rule profile, SetUp and FEN, the end's reason, movetext wrapped at 80 columns,
// moves numbered as they alternate), so that the page's games read like the arena's. The moves'
// SAN comes from the runtime (sz_game_san).

function tag(name, value) {
  return `[${name} "${String(value).replace(/[\\"]/g, (c) => '\\' + c)}"]\n`;
}

export function pgnDate(date = new Date()) {
  const two = (n) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}.${two(date.getUTCMonth() + 1)}.${two(date.getUTCDate())}`;
}

// The result as PGN writes it, from the runtime's result names.
export function pgnResult(result) {
  return { 'white-wins': '1-0', 'black-wins': '0-1', draw: '1/2-1/2' }[result] || '*';
}

function movetext(sans, result) {
  let text = '', line = '';
  const emit = (token) => {
    if (line && line.length + 1 + token.length > 80) {
      text += line + '\n';
      line = '';
    }
    line += (line ? ' ' : '') + token;
  };
  let number = 1, black = false;
  for (const san of sans) {
    if (!black) emit(`${number}.`);
    emit(san);
    if (black) ++number;
    black = !black;
  }
  emit(result);
  return text + line + '\n';
}

// game: { white, black, result ('1-0', ...), variant, profile, startFen, endReason, sans, date }
export function toPgn(game) {
  let out = '';
  out += tag('Event', game.event || 'sittuyin-zero web game');
  out += tag('Site', game.site || 'browser');
  out += tag('Date', game.date || pgnDate());
  out += tag('Round', '-');
  out += tag('White', game.white);
  out += tag('Black', game.black);
  out += tag('Result', game.result);
  out += tag('Variant', game.variant);
  out += tag('RuleProfile', game.profile);
  out += tag('SetUp', '1');
  out += tag('FEN', game.startFen);
  if (game.endReason && game.endReason !== 'none') out += tag('EndReason', game.endReason);
  return out + '\n' + movetext(game.sans, game.result) + '\n';
}
