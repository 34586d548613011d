// Where a JSON text first goes wrong. V8's JSON.parse messages do not always carry a position;
// run only after JSON.parse has failed, this small scanner finds the offending offset.

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const skip = () => {
    while (i < text.length && WHITESPACE.has(text[i])) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail();
    i += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    skip();
    const c = text[i];
    if (c === "{") return container("}", true);
    if (c === "[") return container("]", false);
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    return number();
  };
  const container = (close: string, keyed: boolean): void => {
    i++;
    skip();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      if (keyed) {
        skip();
        if (text[i] !== '"') fail();
        string();
        skip();
        if (text[i] !== ":") fail();
        i++;
      }
      value();
      skip();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      fail();
    }
  };
  try {
    value();
    skip();
    if (i < text.length) fail();
    return Math.min(i, text.length);
  } catch (offset) {
    return Math.min(offset as number, text.length);
  }
}
