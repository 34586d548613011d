// Where a JSON text first goes wrong. V8's JSON.parse messages do not always carry a position;
// run only after JSON.parse has failed, this small scanner finds the offending offset.

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

export function jsonErrorOffset(text: string): number {
  const scanner = new JsonScanner(text);
  try {
    scanner.value();
    scanner.skip();
    if (scanner.i < text.length) scanner.fail();
    return Math.min(scanner.i, text.length);
  } catch (offset) {
    return Math.min(offset as number, text.length);
  }
}

/** A recursive-descent walk over JSON that throws the offset where the text stops being JSON. */
class JsonScanner {
  i = 0;

  constructor(private readonly text: string) {}

  fail(): never {
    throw this.i;
  }

  skip(): void {
    while (this.i < this.text.length && WHITESPACE.has(this.text[this.i])) this.i++;
  }

  value(): void {
    this.skip();
    const c = this.text[this.i];
    if (c === "{") return this.container("}", true);
    if (c === "[") return this.container("]", false);
    if (c === '"') return this.string();
    if (c === "t") return this.literal("true");
    if (c === "f") return this.literal("false");
    if (c === "n") return this.literal("null");
    return this.number();
  }

  private literal(word: string): void {
    if (this.text.startsWith(word, this.i)) this.i += word.length;
    else this.fail();
  }

  private string(): void {
    const text = this.text;
    this.i++; // opening quote
    while (this.i < text.length && text[this.i] !== '"') {
      if (text.charCodeAt(this.i) < 0x20) this.fail();
      if (text[this.i] === "\\") this.escape();
      this.i++;
    }
    if (this.i >= text.length) this.fail();
    this.i++;
  }

  /** At a backslash: moves to the last character of a valid escape, or fails. */
  private escape(): void {
    const text = this.text;
    this.i++;
    if (text[this.i] === "u") {
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 1, this.i + 5))) this.fail();
      this.i += 4;
    } else if (!'"\\/bfnrt'.includes(text[this.i] ?? "x")) this.fail();
  }

  private number(): void {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.i, this.i + 400));
    if (!match) this.fail();
    this.i += match[0].length;
  }

  private container(close: string, keyed: boolean): void {
    this.i++;
    this.skip();
    if (this.text[this.i] === close) {
      this.i++;
      return;
    }
    for (;;) {
      if (keyed) this.key();
      this.value();
      this.skip();
      if (this.text[this.i] === ",") {
        this.i++;
        continue;
      }
      if (this.text[this.i] === close) {
        this.i++;
        return;
      }
      this.fail();
    }
  }

  /** A member's name and its colon. */
  private key(): void {
    this.skip();
    if (this.text[this.i] !== '"') this.fail();
    this.string();
    this.skip();
    if (this.text[this.i] !== ":") this.fail();
    this.i++;
  }
}
