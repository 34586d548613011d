// The code blocks of a Markdown page and the marker before each, for the test that follows the docs
// (test/docs-follow.test.ts). A marker is an HTML comment on the line just before the fence, so GitHub
// shows nothing of it:
//
//   <!-- run -->                          run the block with bash in the page's project; it must exit 0
//   <!-- run: exit=1 -->                  … and exit with this status
//   <!-- run: expect="HTTP 200" -->       … and print this text (or expect='"quoted"')
//   <!-- run: background until="text" --> start it, wait until it prints the text, stop it at the page's end
//   <!-- file: src/app.ts -->             write the block to this file of the project (.ts files are
//                                         type-checked with the installed tsc after the last page)
//   <!-- not-run: reason -->              not run; the reason says why (a deployment of your own, a clone…)
//
// A page takes part by having markers; in such a page every shell, TypeScript, JavaScript and Python
// block must carry one.

export type Marker =
  | { kind: "run"; exit: number; expect?: string; background: boolean; until?: string }
  | { kind: "file"; path: string }
  | { kind: "not-run"; reason: string };

export interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  marker?: Marker;
  /** The marker's text when it could not be read. */
  badMarker?: string;
}

/** Languages whose blocks must be marked in a page that takes part. */
export const CHECKED_LANGS = new Set([
  "sh",
  "bash",
  "shell",
  "console",
  "ts",
  "typescript",
  "js",
  "javascript",
  "mjs",
  "python",
]);

const MARKER = /^\s*<!--\s*(run|file|not-run)\s*(?::\s*(.*?))?\s*-->\s*$/;

/** Every fenced block of the page, with the marker on the line before it. */
export function blocksOf(text: string): Block[] {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+|~~~+)\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const fence = open[2];
    const end = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence) && l.trim().replace(/[`~]/g, "") === "");
    const stop = end === -1 ? lines.length : end;
    const block: Block = { line: i + 1, lang: open[3].toLowerCase(), code: lines.slice(i + 1, stop).join("\n") };
    const before = i > 0 ? lines[i - 1] : "";
    if (MARKER.test(before)) {
      const marker = parseMarker(before);
      if (marker) block.marker = marker;
      else block.badMarker = before.trim();
    }
    blocks.push(block);
    i = stop;
  }
  return blocks;
}

/** Whether the page has at least one marker (it takes part in the docs test). */
export function takesPart(text: string): boolean {
  return text.split("\n").some((l) => MARKER.test(l));
}

export function parseMarker(line: string): Marker | undefined {
  const m = MARKER.exec(line);
  if (!m) return undefined;
  const [, kind, rest = ""] = m;
  if (kind === "not-run") return rest ? { kind, reason: rest } : undefined;
  if (kind === "file") return rest && !/\s/.test(rest) ? { kind, path: rest } : undefined;
  const marker: Marker = { kind: "run", exit: 0, background: false };
  for (const part of rest.matchAll(/(\w+)(?:=(?:"([^"]*)"|'([^']*)'|(\S+)))?/g)) {
    const [, key, double, single, bare] = part;
    const value = double ?? single ?? bare;
    if (key === "background" && value === undefined) marker.background = true;
    else if (key === "exit" && value !== undefined && /^\d+$/.test(value)) marker.exit = Number(value);
    else if (key === "expect" && value) marker.expect = value;
    else if (key === "until" && value) marker.until = value;
    else return undefined;
  }
  if (marker.background && !marker.until) return undefined;
  return marker;
}

/** The blocks of a page that takes part which carry no marker, or one that cannot be read. */
export function unmarked(text: string): Block[] {
  return blocksOf(text).filter((b) => b.badMarker !== undefined || (CHECKED_LANGS.has(b.lang) && !b.marker));
}
