// Reads a file line by line in large chunks, so a data directory larger than one JavaScript string
// (V8 caps strings near 512 MiB) or than memory twice over still opens. Lines are counted in bytes,
// which is what a torn journal append is truncated by.
//
// readLineSpans hands out each line as a span of a Buffer that is never reused: a caller may keep the
// span and decode it later (state-store.ts keeps snapshot records as bytes until they are read, outside
// the JavaScript heap, where the garbage collector does not have to walk them).
import fs from "node:fs";

const CHUNK_BYTES = 64 * 1024 * 1024;
const NEWLINE = 0x0a;

export type SpanHandler = (buf: Buffer, start: number, end: number) => boolean | void;

/**
 * Calls `onSpan` with each complete line (without its newline) until it returns false. Returns the
 * bytes of the complete lines accepted; an unterminated last line is never passed on.
 */
export function readLineSpans(
  file: string,
  onSpan: SpanHandler,
  chunkBytes = CHUNK_BYTES,
): { acceptedBytes: number; totalBytes: number } {
  const fd = fs.openSync(file, "r");
  try {
    // No larger than the file (a small journal does not get a 64 MiB buffer).
    chunkBytes = Math.max(1, Math.min(chunkBytes, fs.fstatSync(fd).size + 1));
    let carry: Buffer = Buffer.alloc(0);
    let accepted = 0;
    let total = 0;
    for (;;) {
      // The unfinished line of the last chunk first, then the file's next bytes read in right after it.
      const chunk = Buffer.allocUnsafe(carry.length + chunkBytes);
      carry.copy(chunk, 0);
      const read = fs.readSync(fd, chunk, carry.length, chunkBytes, null);
      if (read === 0) return { acceptedBytes: accepted, totalBytes: total };
      total += read;
      const data = chunk.subarray(0, carry.length + read);
      let start = 0;
      for (let nl = data.indexOf(NEWLINE, start); nl >= 0; nl = data.indexOf(NEWLINE, start)) {
        if (onSpan(data, start, nl) === false) return { acceptedBytes: accepted, totalBytes: fs.fstatSync(fd).size };
        accepted += nl + 1 - start;
        start = nl + 1;
      }
      // The unfinished line moves to the next chunk's buffer; this one stays with the spans handed out.
      carry = data.subarray(start);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** readLineSpans with each line decoded as UTF-8 text. */
export function readLines(
  file: string,
  onLine: (text: string) => boolean | void,
  chunkBytes?: number,
): { acceptedBytes: number; totalBytes: number } {
  return readLineSpans(file, (buf, start, end) => onLine(buf.toString("utf8", start, end)), chunkBytes);
}
