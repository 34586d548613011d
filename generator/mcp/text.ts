// Text from a document is data: descriptions reach the model as plain, bounded strings, never as
// anything that could break a schema, a JSON line or a generated file.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Control characters gone, runs of blank lines and spaces collapsed, cut at a word under `max`. */
export function cleanText(text: string | undefined, max = 1000): string {
  const clean = (text ?? "")
    .replace(CONTROL, " ")
    .replace(/[ \t]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** "listWalletWithdrawals" → "List wallet withdrawals", for a title when the spec has no summary. */
export function titleFromName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
