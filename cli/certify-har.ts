// The --har flag of `custody certify` (declared in commands/certify.ts): records every exchange and writes them once the run ends.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { HarRecorder } from "../conformance/report/har.ts";
import type { Redactor } from "../conformance/transport/redact.ts";
import { custodyVersion } from "../lib/version.ts";

export function harRecorder(file: string | undefined): HarRecorder | undefined {
  return file ? new HarRecorder() : undefined;
}

/** Writes the HAR file; returns its absolute path. */
export function writeHar(file: string, recorder: HarRecorder, redactor: Redactor): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, recorder.render(redactor, custodyVersion()));
  return resolve(file);
}
