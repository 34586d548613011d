// Reads a spec file: its bytes (for the header's sha256) and the parsed document. Syntax errors are
// reported as `file:line:col: problem`; JSON is parsed natively (much faster than YAML on big specs).
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { jsonErrorOffset } from "./json-error-offset.ts";
import { SpecError } from "./spec-error.ts";
import { parseYamlText, YamlSyntaxError } from "./yaml-parser.ts";

export interface SpecDocument {
  /** Path as given (absolute or relative to the working directory). */
  path: string;
  /** What the header and messages show: relative to the working directory when inside it. */
  displayPath: string;
  sha256: string;
  text: string;
  isJson: boolean;
  document: Record<string, unknown>;
}

export async function readDocument(path: string, displayPath: string): Promise<SpecDocument> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "file not found" : code === "EISDIR" ? "is a directory" : `cannot read (${code ?? "error"})`;
    throw new SpecError(displayPath, [{ pointer: "", problem: why }]);
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  // A UTF-8 byte-order mark is allowed before JSON and YAML alike (RFC 8259 section 8.1 lets parsers ignore it).
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  const isJson = /\.json$/i.test(path) || /^\s*\{/.test(text);
  const value = isJson ? parseJson(text, displayPath) : parseYaml(text, displayPath);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new SpecError(displayPath, [{ pointer: "", problem: "the document is not an object" }]);
  }
  return { path, displayPath, sha256, text, isJson, document: value as Record<string, unknown> };
}

export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const where = lineCol(text, position ? Number(position[1]) : jsonErrorOffset(text));
    const problem = message
      .replace(/ in JSON at position \d+.*$/s, "")
      .replace(/, ".*" is not valid JSON$/s, "")
      .split("\n")[0];
    throw new SpecError(file, [{ pointer: where, problem: `JSON syntax error: ${problem}` }]);
  }
}

function parseYaml(text: string, file: string): unknown {
  try {
    return parseYamlText(text);
  } catch (error) {
    if (!(error instanceof YamlSyntaxError)) throw error;
    const { line, column, reason } = error.fault;
    throw new SpecError(file, [{ pointer: `${line}:${column}`, problem: `YAML syntax error: ${reason}` }]);
  }
}

function lineCol(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return `${line}:${offset - lineStart + 1}`;
}
