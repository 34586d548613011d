// Text from a document (descriptions, summaries, titles, examples, enum values, names) is data. Every
// place it reaches generated output goes through one of these, chosen by the context it lands in, so
// it never ends a comment, a string or a template early, never reads as code, and stays readable.
// Nothing here scans the text for meaning: each function only escapes what its context gives meaning.
// (HTML: the conformance report's Handlebars template escapes every value itself.)

/** Line terminators JavaScript and TypeScript know besides "\n" (U+2028/U+2029 end a `//` comment). */
const LINE_BREAKS = /\r\n?|[\u2028\u2029]/g;
/** Control characters other than tab and newline: shown as `\u0000`-style text, never written raw. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

function visibleControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Inside a block comment (`/** … *\/`): the terminator defused, every line break a "\n". */
export function commentText(text: string): string {
  return visibleControls(text.replace(LINE_BREAKS, "\n")).replace(/\*\//g, "*\\/");
}

/** Inside a `//` comment: one line. */
export function lineCommentText(text: string): string {
  return commentText(text).replace(/\n/g, " ");
}

/** A JSON value as TypeScript source (a literal, an array or an object), optionally indented. */
export function codeJson(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent) ?? "undefined";
  return json.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Markdown running text (a heading, a table cell): one line, nothing taken as markup or HTML. */
export function markdownText(text: string): string {
  return (
    visibleControls(text)
      .replace(/[\s\u2028\u2029]+/g, " ")
      .trim()
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/[\\`*[\]|]/g, "\\$&")
      // An underscore inside a word (snake_case) is never emphasis: left as written.
      .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_")
  );
}

/** A Markdown code span holding `text` (fenced with more backticks than it holds; safe in a table cell). */
export function markdownCode(text: string): string {
  const line = visibleControls(text)
    .replace(/[\s\u2028\u2029]+/g, " ")
    .trim()
    .replace(/\|/g, "\\|");
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}
