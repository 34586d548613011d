// The --har flag of `custody certify`: records every exchange and writes them once the run ends.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { HarRecorder } from "../conformance/report/har.ts";
import type { Redactor } from "../conformance/redact.ts";
import { version } from "./main.ts";

export const HAR_FLAGS = { har: { type: "string" } } as const;
export const HAR_USAGE = `  --har FILE          write every HTTP exchange as HAR 1.2 (credentials and secrets redacted; bodies up to 4 KiB)`;

export function harRecorder(file: string | undefined): HarRecorder | undefined {
  return file ? new HarRecorder() : undefined;
}

/** Writes the HAR file; returns its absolute path. */
export function writeHar(file: string, recorder: HarRecorder, redactor: Redactor): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, recorder.render(redactor, version()));
  return resolve(file);
}
