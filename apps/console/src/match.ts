// A search result's `match` (GET /calls with `q`): a passage of the transcript or summary, HTML-escaped by the server,
// the matched words between `<mark>` and `</mark>`. The page shows it as text and <mark> elements, never as HTML.

/** One run of a match's text: `marked` when the search matched it. */
export interface MatchPart {
  text: string;
  marked: boolean;
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
  '&#039;': "'",
};

/**
 * The server's escaping undone, in one pass: `&amp;lt;` (the text `&lt;` as typed by a caller) becomes `&lt;`, not
 * `<`. Any other `&...;` stays as it is.
 */
export function unescapeHtml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39|#x27|#039);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * A match as runs of plain and marked text, each un-escaped. The markers are read before un-escaping, so a caller
 * who said "<mark>" (escaped by the server as `&lt;mark&gt;`) gets the words, not a highlight. A stray or repeated
 * marker only opens or closes a highlight; empty runs are left out, and neighbouring runs of the same kind joined.
 */
export function splitMatch(match: string): MatchPart[] {
  const parts: MatchPart[] = [];
  let marked = false;
  for (const piece of match.split(/(<\/?mark>)/)) {
    if (piece === '<mark>' || piece === '</mark>') {
      marked = piece === '<mark>';
      continue;
    }
    const text = unescapeHtml(piece);
    if (!text) continue;
    const last = parts[parts.length - 1];
    if (last && last.marked === marked) last.text += text;
    else parts.push({ text, marked });
  }
  return parts;
}
