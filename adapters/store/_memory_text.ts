// An input and the audit record that records it carry the same text (a tool's output, a message): kept twice, a 3 KB
// output doubles what the in-memory store holds for a step, and every copy is carried through the young generation
// before it settles. So the input's text is kept as the record's copy of that piece with the input's own text around
// it: the same characters (the piece is searched in both texts, so it is equal by construction), held once. The record
// never points at the input, so trimming a chain or dropping inputs frees what either kept alone.

/**
 * `text` (an input's JSON) built to share its longest string's JSON with `record` (its audit record's text), equal to
 * `text` character for character; undefined when the record does not hold that piece.
 */
export function shareInputText(text: string, longest: string, record: string): string | undefined {
  // A string's JSON is the string between quotes when JSON escapes nothing in it (searched first: no second JSON).
  for (let attempt = 0; attempt < 2; attempt++) {
    const piece = attempt === 0 ? longest : JSON.stringify(longest);
    const at = text.indexOf(piece);
    const from = at < 0 ? -1 : record.indexOf(piece);
    if (from < 0) continue;
    return ownCopy(text.slice(0, at)) + record.slice(from, from + piece.length) +
      ownCopy(text.slice(at + piece.length));
  }
  return undefined;
}

/**
 * The same characters in a string of their own: a slice of a longer text keeps that text alive (V8 shares it), so
 * the pieces around the shared one are copied (a joined string is written out whole when it is sliced).
 */
function ownCopy(slice: string): string {
  return `${slice} `.slice(0, -1);
}
