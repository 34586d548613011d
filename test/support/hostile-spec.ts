// An OpenAPI document whose every piece of text carries what can end a comment, a string or a
// template, or read as an import: the generator must carry it as data.

/** The hostile text: comment and template terminators, quotes, HTML, import look-alikes, line separators, NUL. */
export const HOSTILE =
  '*/ ${x} `tick` \'single\' "double" </script><!-- from "evil-pkg" import("evil-dyn") \u2028 \u2029 \0 end';

/** The same text made unique per place, so each place can be found in the output. */
export function hostile(place: string): string {
  return `${place}: ${HOSTILE}`;
}

/** The document, with `h` giving each place's text (hostile by default). */
export function hostileSpec(h: (place: string) => string = hostile): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: h("title"), version: h("version"), description: h("info") },
    servers: [
      { url: `https://api.example.com/${encodeURIComponent(h("server"))}`, description: h("server-description") },
    ],
    tags: [{ name: h("tag"), description: h("tag-description") }],
    paths: {
      "/things/{thingId}": {
        post: {
          operationId: h("operationId"),
          summary: h("summary"),
          description: h("description"),
          tags: [h("tag")],
          parameters: [
            {
              name: "thingId",
              in: "path",
              required: true,
              description: h("path-parameter"),
              schema: { type: "string", example: h("path-example") },
            },
            {
              name: h("query-name"),
              in: "query",
              description: h("query-parameter"),
              schema: { type: "string", enum: [h("query-enum")] },
            },
          ],
          requestBody: {
            required: true,
            description: h("body"),
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Thing" },
                example: { [h("key")]: h("body-example") },
              },
            },
          },
          responses: {
            "200": {
              description: h("response"),
              content: {
                "application/json": {
                  schema: { $ref: "#/components/schemas/Thing" },
                  example: { label: h("response-example") },
                },
              },
            },
            "404": { description: h("error-response") },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: "object",
          title: h("schema-title"),
          description: h("schema-description"),
          properties: {
            label: {
              type: "string",
              description: h("property-description"),
              default: h("default"),
              examples: [h("property-example")],
            },
            kind: { type: "string", enum: [h("enum-value"), "plain"] },
            [h("key")]: { type: "string", title: h("property-title"), pattern: "^[^\\u2028]*$" },
            fixed: { const: h("const") },
          },
          required: ["label"],
        },
      },
    },
  };
}
