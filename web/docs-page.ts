// The API reference page at /docs: spec/openapi.yaml rendered in the browser by Swagger UI, whose
// files come from the installed swagger-ui-dist package (no CDN: the page works offline). Chosen over
// Redoc and Scalar because it is one self-contained bundle with no runtime dependencies to install.
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { dependencyDir, packageFile } from "./locate.ts";
import { redirect, sendAsset } from "./static.ts";

export interface DocsPageOptions {
  /** The OpenAPI document to render; default the package's spec/openapi.yaml. */
  specFile?: string;
}

/** Answers GET/HEAD under /docs; returns false for every other request. */
export function createDocsPage(options: DocsPageOptions = {}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const files: Record<string, () => string> = {
    "/docs/": () => packageFile("web", "docs", "index.html"),
    "/docs/docs.js": () => packageFile("web", "docs", "docs.js"),
    "/docs/openapi.yaml": () => options.specFile ?? packageFile("spec", "openapi.yaml"),
    "/docs/swagger-ui-bundle.js": () => path.join(dependencyDir("swagger-ui-dist"), "swagger-ui-bundle.js"),
    "/docs/swagger-ui.css": () => path.join(dependencyDir("swagger-ui-dist"), "swagger-ui.css"),
  };
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const target = (req.url ?? "").split("?")[0];
    if (target === "/docs") {
      redirect(res, "/docs/");
      return true;
    }
    const file = Object.hasOwn(files, target) ? files[target] : undefined;
    if (file === undefined) return false;
    sendAsset(res, req.method, file());
    return true;
  };
}
