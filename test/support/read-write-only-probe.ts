// The readOnly/writeOnly fixture's output with what proves its types at compile time: a probe whose
// every @ts-expect-error fails the check ("unused directive") when the line it guards compiles, so the
// hidden properties must really be absent from the types; and type-match.ts (each type and variant
// mutually assignable with z.infer of its schema). Compiled in test/generator-compile.test.ts;
// test/generator-read-write-only.test.ts checks the rest of the same output.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate, renderFiles } from "../../generator/index.ts";
import { writeTypeMatch } from "../../scripts/type-match.ts";

export const READ_WRITE_ONLY_SPEC = fileURLToPath(new URL("../fixtures/specs/read-write-only.yaml", import.meta.url));

const TYPE_TEST = `import type * as T from "./types.ts";
import type { PetsClient } from "./client.ts";

export async function useClient(client: PetsClient): Promise<void> {
  // A request body without the readOnly id compiles, and may carry the writeOnly password.
  const created = await client.createPet({ body: { name: "Rex", password: "s3cret" } });
  const id: string = created.id;
  // @ts-expect-error id is readOnly: not part of a request body
  await client.createPet({ body: { id: "p1", name: "Rex" } });
  // @ts-expect-error password is writeOnly: not part of a response
  void created.password;
  const owner = await client.putOwner({ body: { owner: { name: "Ann", favourite: { name: "Rex" }, pets: [{ name: "Bo" }] } } });
  const etag: string = owner.etag;
  const nested: string = owner.owner.favourite.id;
  // @ts-expect-error inside another component too
  void owner.owner.pets?.[0]?.password;
  // @ts-expect-error an inline request body drops its readOnly property
  await client.putOwner({ body: { owner: { name: "Ann", favourite: { name: "Rex" } }, etag: "e" } });
  // @ts-expect-error and in an array of a component inside it
  await client.putOwner({ body: { owner: { name: "Ann", favourite: { name: "Rex" }, pets: [{ id: "p2", name: "Bo" }] } } });
  const category = await client.createCategory({ body: { name: "dogs", parent: { name: "animals", pets: [{ name: "Rex" }] } } });
  // @ts-expect-error through the cycle as well
  void category.parent?.parent?.pets?.[0]?.password;
  const list = await client.listPets();
  // @ts-expect-error items of an array response
  void list[0]?.password;
  void [id, etag, nested];
}

export function baseTypesStay(pet: T.Pet): string | undefined {
  // The direction-less type keeps every property, as before.
  return pet.id + pet.name + (pet.password ?? "");
}

export function webhookEvent(event: import("./webhooks.ts").WebhookEvent): string {
  // @ts-expect-error a webhook event is sent by the server: no writeOnly property
  void event.password;
  return event.id;
}
`;

/** Generates the fixture into `out` with the probe and type-match.ts; the count of type-match lines and of names. */
export async function writeReadWriteOnlyProbe(out: string): Promise<{ matched: number; names: number }> {
  const { model } = await renderFiles({ specPath: READ_WRITE_ONLY_SPEC, outDir: out });
  await generate({ specPath: READ_WRITE_ONLY_SPEC, outDir: out });
  await writeFile(join(out, "type-test.ts"), TYPE_TEST);
  const names = model.schemas.flatMap((s) => [s.typeName, ...Object.values(s.variants ?? {}).map((v) => v.typeName)]);
  return { matched: await writeTypeMatch(out, names), names: names.length };
}
