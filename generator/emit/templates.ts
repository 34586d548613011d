// Handlebars templates (templates/*.hbs) for prose: the file header and generated/README.md.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import Handlebars from "handlebars";
import { packagePath } from "../../lib/package-root.ts";

const TEMPLATE_DIR = pathToFileURL(`${packagePath(import.meta.url, "templates")}/`);
const cache = new Map<string, ReturnType<typeof Handlebars.compile>>();

export function renderTemplate(name: string, data: unknown): string {
  let template = cache.get(name);
  if (template === undefined) {
    const source = readFileSync(new URL(`${name}.hbs`, TEMPLATE_DIR), "utf8");
    // noEscape: the output is Markdown and comments, not HTML.
    template = Handlebars.compile(source, { noEscape: true, strict: false });
    cache.set(name, template);
  }
  return template(data);
}

export interface HeaderSpec {
  path: string;
  sha256: string;
}

/** The header lines every generated file starts with (comment markers added by the emitter). */
export function headerLines(specs: readonly HeaderSpec[]): string[] {
  return renderTemplate("header", { specs }).trimEnd().split("\n");
}
