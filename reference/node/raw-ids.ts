// JSON.parse turns a request id such as 12345678901234567890 or 1e400 into a lossy double, but JSON-RPC
// requires the id to be echoed unchanged. For the rare requests whose numeric id is not a safe integer,
// this scanner recovers the id's source text from the (already validated) JSON.

/** Source text of the top-level "id" member if it is a number (single request). */
export function rawIdOfObject(text: string): string | undefined {
  const scanner = new Scanner(text);
  scanner.skipSpace();
  return scanner.peek() === "{" ? scanner.objectId() : undefined;
}

/** Source text of each element's numeric "id" member (batch), aligned with the elements. */
export function rawIdsOfBatch(text: string): (string | undefined)[] {
  const scanner = new Scanner(text);
  const ids: (string | undefined)[] = [];
  scanner.skipSpace();
  if (scanner.peek() !== "[") return ids;
  scanner.pos++;
  scanner.skipSpace();
  if (scanner.peek() === "]") return ids;
  for (;;) {
    scanner.skipSpace();
    if (scanner.peek() === "{") ids.push(scanner.objectId());
    else {
      scanner.skipValue();
      ids.push(undefined);
    }
    scanner.skipSpace();
    if (scanner.peek() !== ",") return ids;
    scanner.pos++;
  }
}

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  peek(): string {
    return this.text[this.pos] ?? "";
  }

  skipSpace(): void {
    while (this.pos < this.text.length && " \t\n\r".includes(this.text[this.pos]!)) this.pos++;
  }

  /** At "{": walks the object and returns the last "id" member's text if it is a number. */
  objectId(): string | undefined {
    let id: string | undefined;
    this.pos++;
    this.skipSpace();
    if (this.peek() === "}") {
      this.pos++;
      return id;
    }
    for (;;) {
      this.skipSpace();
      const keyStart = this.pos;
      this.skipString();
      const key = JSON.parse(this.text.slice(keyStart, this.pos)) as string; // decodes escapes like "\u0069d"
      this.skipSpace();
      this.pos++; // ":"
      this.skipSpace();
      const valueStart = this.pos;
      this.skipValue();
      if (key === "id") {
        const value = this.text.slice(valueStart, this.pos);
        id = /^-?[0-9]/.test(value) ? value : undefined;
      }
      this.skipSpace();
      if (this.peek() !== ",") {
        this.pos++; // "}"
        return id;
      }
      this.pos++;
    }
  }

  skipValue(): void {
    const c = this.peek();
    if (c === '"') return this.skipString();
    if (c === "{" || c === "[") return this.skipNested();
    while (this.pos < this.text.length && !",]} \t\n\r".includes(this.text[this.pos]!)) this.pos++;
  }

  skipString(): void {
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++];
      if (c === "\\") this.pos++;
      else if (c === '"') return;
    }
  }

  skipNested(): void {
    let depth = 0;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '"') {
        this.skipString();
        continue;
      }
      this.pos++;
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) return;
      }
    }
  }
}
