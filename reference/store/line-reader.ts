// Reads a file line by line in fixed-size chunks, so a data directory larger than one JavaScript
// string (V8 caps strings near 512 MiB) or than memory twice over still opens. Lines are counted in
// bytes, which is what a torn journal append is truncated by.
import fs from "node:fs";

const CHUNK_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Calls `onLine` with each complete line (without its newline) until it returns false. Returns the
 * bytes of the complete lines accepted; an unterminated last line is never passed on.
 */
export function readLines(file: string, onLine: (text: string) => boolean | void): { acceptedBytes: number; totalBytes: number } {
  const fd = fs.openSync(file, "r");
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry: Buffer = Buffer.alloc(0);
    let accepted = 0;
    let total = 0;
    for (;;) {
      const read = fs.readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (read === 0) return { acceptedBytes: accepted, totalBytes: total };
      total += read;
      const data = carry.length === 0 ? chunk.subarray(0, read) : Buffer.concat([carry, chunk.subarray(0, read)]);
      let start = 0;
      for (let nl = data.indexOf(NEWLINE, start); nl >= 0; nl = data.indexOf(NEWLINE, start)) {
        if (onLine(data.toString("utf8", start, nl)) === false) return { acceptedBytes: accepted, totalBytes: fs.fstatSync(fd).size };
        accepted += nl + 1 - start;
        start = nl + 1;
      }
      // Copied, because `chunk` is reused by the next read.
      carry = Buffer.from(data.subarray(start));
    }
  } finally {
    fs.closeSync(fd);
  }
}
