// Relative links in the repository's Markdown: every [text](target) and ![alt](target) outside code
// must name a file or folder that exists, and a #fragment must name a heading of that file (GitHub's
// anchors). External links (http:, https:, mailto:) are not fetched.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SKIP_DIRS = new Set(["node_modules", ".git", "dist", "test-output", "coverage"]);

/** Every .md file under root, skipping dependencies, build output and scratch folders (.tmp*). */
export function markdownFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".tmp") || SKIP_DIRS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(root, path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

/** The text outside fenced code blocks and inline code spans, line by line (line numbers kept). */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return "";
    }
    return fence === undefined ? line.replace(/`+[^`]*`+/g, "") : "";
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fence = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    // Links keep their text; HTML tags go, except inside code spans, where `<name>` is text.
    const plain = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .split(/(`[^`]*`)/)
      .map((part) => (part.startsWith("`") ? part : part.replace(/<[^>]+>/g, "")))
      .join("");
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** The broken relative links of the given Markdown files (paths relative to root in the result). */
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let set = anchorCache.get(file);
    if (!set) anchorCache.set(file, (set = anchorsOf(readFileSync(file, "utf8"))));
    return set;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    proseLines(readFileSync(file, "utf8")).forEach((line, i) => {
      for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [path, fragment] = target.split("#", 2);
        const resolved = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
        const at = { file: relative(root, file), line: i + 1, target };
        if (!existsSync(resolved)) broken.push({ ...at, problem: `${relative(root, resolved)} does not exist` });
        else if (
          fragment !== undefined &&
          resolved.endsWith(".md") &&
          statSync(resolved).isFile() &&
          !anchors(resolved).has(fragment)
        ) {
          broken.push({ ...at, problem: `${relative(root, resolved)} has no heading #${fragment}` });
        }
      }
    });
  }
  return broken;
}
