// The page's formations (formations.txt, a book file as docs/PLACEMENT.md describes: WEIGHT
// FORMATION, '#' to the end of a line is a comment that names the formation here). Which of them
// a rule profile allows is the runtime's answer (engine_worker.js 'formations').

export function parseFormations(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const hash = line.indexOf('#');
    const body = (hash < 0 ? line : line.slice(0, hash)).trim();
    if (!body) continue;
    const words = body.split(/\s+/);
    const text_ = /^[0-9.]+$/.test(words[0]) ? words.slice(1).join(' ') : words.join(' ');
    out.push({ text: text_, name: hash < 0 ? text_ : line.slice(hash + 1).trim() });
  }
  return out;
}

export async function loadFormations(url) {
  try {
    const response = await fetch(url);
    return response.ok ? parseFormations(await response.text()) : [];
  } catch {
    return [];
  }
}
