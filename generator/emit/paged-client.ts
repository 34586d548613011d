// The client member of a paged list operation (x-custody-pagination): instead of a method, a readonly
// property holding a PagedOperation (runtime/http/paginate.ts). It is called exactly like the method it
// replaces, and adds `.all()` (every item) and `.pages()` (every page), typed with the item type the
// items pointer reaches.
import type { OptionalKind, PropertyDeclarationStructure } from "ts-morph";
import type { OperationModel, PaginationModel, SpecModel } from "../model/types.ts";
import { codeJson } from "../spec-text.ts";

/** The readonly property that replaces the method of a paged operation. */
export function pagedProperty(
  op: OperationModel & { pagination: PaginationModel },
  docs: string,
  responseKind: string,
  inputOptional: boolean,
): OptionalKind<PropertyDeclarationStructure> {
  const p = op.pagination;
  const data = `T.${op.names.data}`;
  const managed = [p.offset.name, p.limit.name].map((n) => codeJson(n)).join(" | ");
  const call = `(input, options) => callOperation(this.transport, calls[${codeJson(op.name)}], input ?? {}, options, "${responseKind}")`;
  return {
    name: op.name,
    isReadonly: true,
    docs: [docs],
    type: `PagedOperation<T.${op.names.input}, ${data}, ${itemType(data, p.itemsPath)}, ${managed}${inputOptional ? ", true" : ""}>`,
    initializer: `paginate(${call}, ${pageSpecSource(p)})`,
  };
}

/**
 * The PageSpec of runtime/http/paginate.ts as source (the client's iterators and the operation table's
 * `pagination`, which certify reads): parameter names, the items path from what the client returns,
 * the limit's default and maximum.
 */
export function pageSpecSource(p: PaginationModel): string {
  return objectLiteral({
    offset: p.offset.name,
    limit: p.limit.name,
    items: p.itemsPath,
    ...(p.defaultLimit !== undefined ? { defaultLimit: p.defaultLimit } : {}),
    ...(p.maxLimit !== undefined ? { maxLimit: p.maxLimit } : {}),
  });
}

/** `{ offset: "offset", items: [] }`: JSON with bare keys where they are identifiers. */
function objectLiteral(value: Record<string, unknown>): string {
  const entries = Object.entries(value).map(
    ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : codeJson(k)}: ${codeJson(v)}`,
  );
  return `{ ${entries.join(", ")} }`;
}

/** `NonNullable<Data>[number]`, reaching through the property path first. */
function itemType(data: string, path: readonly string[]): string {
  const container = path.reduce((type, key) => `NonNullable<${type}>[${codeJson(key)}]`, data);
  return `NonNullable<${container}>[number]`;
}

/** The paragraph the method docs gain: how a page is asked for and how to iterate. */
export function pagingDocs(op: OperationModel & { pagination: PaginationModel }): string {
  const p = op.pagination;
  const size = [
    p.defaultLimit !== undefined ? `${p.defaultLimit} by default` : undefined,
    p.maxLimit !== undefined ? `at most ${p.maxLimit}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
  return [
    `Paged (x-custody-pagination): one call returns one page, chosen by \`query.${p.offset.key}\` and \`query.${p.limit.key}\`${size ? ` (${size})` : ""}.`,
    `\`.all(input, { pageSize, maxItems, startOffset, signal })\` yields every item and \`.pages(...)\` every page, one request per page; \`break\`, maxItems or the signal stops it.`,
  ].join("\n");
}

/** `for await` over .all() with the spec's example input, for the docs. */
export function pagingExample(_model: SpecModel, op: OperationModel, input: string): string[] {
  const call = `for await (const item of client.${op.name}.all(${input})) {`;
  return ["```ts", ...call.split("\n"), "  console.log(item);", "}", "```"];
}
