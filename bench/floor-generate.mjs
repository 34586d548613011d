// The generation floor: parse the spec and write one file of a given size. No tool can do less and
// still read the spec and write its output. Usage: node floor-generate.mjs SPEC OUT_FILE BYTES
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "yaml";

const [specPath, outFile, bytesArg] = process.argv.slice(2);
const text = readFileSync(specPath, "utf8");
const spec = specPath.endsWith(".json") ? JSON.parse(text) : parse(text);
const bytes = Number(bytesArg);
// Content derived from the parsed spec, so the parse cannot be skipped, repeated up to the size.
const unit = Buffer.from(JSON.stringify(spec));
const out = Buffer.alloc(bytes);
for (let at = 0; at < bytes; at += unit.length) unit.copy(out, at, 0, Math.min(unit.length, bytes - at));
writeFileSync(outFile, out);
