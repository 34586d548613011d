// The modules a TypeScript file imports, read by a lexer that knows comments, string and template
// literals and regular expressions, so text inside them (a spec's description saying `from "x"`) is
// never taken for an import. Not TypeScript's parser: loading the typescript package cost every
// `custody generate` about a second of its two. test/generator-imported-modules.test.ts holds it to
// that parser over every TypeScript file of custody (and test:scale over thousands in node_modules/).
interface Token {
  kind: "word" | "literal" | "punct";
  text: string;
}

const WORD_CHAR = /[\w$\u0080-\uffff]/;
/** Words after which `/` starts a regular expression (anywhere else after a word, it divides). */
const BEFORE_EXPRESSION = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

/** Where `/` starts a regular expression rather than dividing: after an operator or a keyword, not after a value. */
function regexMayStart(previous: Token | undefined): boolean {
  if (previous === undefined) return true;
  if (previous.kind === "punct") return !")]}".includes(previous.text);
  return previous.kind === "word" && BEFORE_EXPRESSION.has(previous.text);
}

/** The end of a quoted string starting at `start` (its quote), and its text. */
function quoted(source: string, start: number): [end: number, text: string] {
  const quote = source[start];
  let i = start + 1;
  let text = "";
  while (i < source.length && source[i] !== quote && source[i] !== "\n") {
    if (source[i] === "\\") i++;
    text += source[i++] ?? "";
  }
  return [i + 1, text];
}

/** The end of a regular expression literal starting at `start` (its slash), flags included. */
function regexEnd(source: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < source.length && source[i] !== "\n" && (inClass || source[i] !== "/")) {
    if (source[i] === "\\") i++;
    else if (source[i] === "[") inClass = true;
    else if (source[i] === "]") inClass = false;
    i++;
  }
  i++;
  while (i < source.length && WORD_CHAR.test(source[i])) i++;
  return i;
}

/** Where a template literal's text ends from `start`: at its closing backtick, or at a `${`. */
function templateText(source: string, start: number): [end: number, opensExpression: boolean] {
  let i = start;
  while (i < source.length && source[i] !== "`" && !(source[i] === "$" && source[i + 1] === "{")) {
    i += source[i] === "\\" ? 2 : 1;
  }
  return source[i] === "$" ? [i + 2, true] : [i + 1, false];
}

function tokens(source: string): Token[] {
  const out: Token[] = [];
  /** Open braces: a block or object ("{"), or a template literal's `${` ("${"). */
  const open: string[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const previous = out.at(-1);
    if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      i = end === -1 ? source.length : end;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end === -1 ? source.length : end + 2;
    } else if (c === '"' || c === "'") {
      const [end, text] = quoted(source, i);
      out.push({ kind: "literal", text });
      i = end;
    } else if (c === "`" || (c === "}" && open.at(-1) === "${")) {
      if (c === "}") open.pop();
      const [end, opensExpression] = templateText(source, i + 1);
      if (opensExpression) open.push("${");
      out.push(opensExpression ? { kind: "punct", text: "${" } : { kind: "literal", text: "`" });
      i = end;
    } else if (c === "/" && regexMayStart(previous)) {
      i = regexEnd(source, i);
      out.push({ kind: "literal", text: "/" });
    } else if (WORD_CHAR.test(c)) {
      let end = i + 1;
      while (end < source.length && WORD_CHAR.test(source[end])) end++;
      out.push({ kind: "word", text: source.slice(i, end) });
      i = end;
    } else {
      if (c === "{") open.push("{");
      else if (c === "}") open.pop();
      if (!/\s/.test(c)) out.push({ kind: "punct", text: c });
      i++;
    }
  }
  return out;
}

/**
 * Past an import or export clause (names, `type`, `* as x`, `{ a as b, … }`): at its `from "x"` or
 * `= require(…)`, or at whatever follows a clause that has none (`export type {}`, `export const …`).
 */
function clauseEnd(list: readonly Token[], start: number): number {
  let j = start;
  while (j < list.length) {
    const token = list[j];
    if (token.text === "{") {
      // A named list (where `from` may be a name): what follows it ends the clause.
      while (j < list.length && list[j].text !== "}") j++;
      return j + 1;
    }
    if (token.kind === "word") {
      if (token.text === "from" && list[j + 1]?.kind === "literal") return j;
      if (token.text === "import" || token.text === "export") return j;
    } else if (token.kind === "literal" || !",*".includes(token.text)) return j;
    j++;
  }
  return j;
}

/** The specifier of the import or export whose keyword is at `i`, if it has one. */
function specifierAt(list: readonly Token[], i: number): string | undefined {
  const at = (k: number): Token | undefined => list[k];
  const keyword = list[i].text;
  if (keyword === "import" && at(i + 1)?.text === "(" && at(i + 2)?.kind === "literal") return at(i + 2)?.text;
  if (keyword === "import" && at(i + 1)?.kind === "literal") return at(i + 1)?.text;
  const j = clauseEnd(list, i + 1);
  if (at(j)?.text === "from" && at(j + 1)?.kind === "literal") return at(j + 1)?.text;
  const requires = at(j)?.text === "=" && at(j + 1)?.text === "require" && at(j + 2)?.text === "(";
  return requires && at(j + 3)?.kind === "literal" ? at(j + 3)?.text : undefined;
}

/**
 * Every module specifier of `import … from`, `export … from`, `import "x"`, `import x = require("x")`,
 * `import("x")` (also `import("x" as string)`) and `import("x").T` in types, in the order written.
 */
export function importedModules(source: string): string[] {
  const list = tokens(source);
  const out: string[] = [];
  list.forEach((token, i) => {
    if (token.kind !== "word" || (token.text !== "import" && token.text !== "export")) return;
    const before = list[i - 1];
    if (before?.kind === "punct" && before.text === ".") return; // a property: x.import(…)
    const specifier = specifierAt(list, i);
    if (specifier !== undefined) out.push(specifier);
  });
  return out;
}
