// validateInput on operations that declare no parameters at a location (the generator then emits no
// schema there): the handler gets an empty object, never what the request sent.
import { expect, it } from "vitest";
import { z } from "zod";
import type { OperationDefinition } from "../runtime/server/types.ts";
import { validateInput } from "../runtime/server/validate.ts";

const base: OperationDefinition = {
  operationId: "op",
  method: "GET",
  path: "/x",
  successStatus: 200,
  scopes: [],
  minRole: "viewer",
  declaredStatuses: [200, 400],
};

it("a location without a schema reaches the handler as {}; an absent body stays undefined", () => {
  const result = validateInput(base, { params: { a: "1" }, query: { q: "2" }, headers: { h: "3" }, body: { b: 4 } });
  expect(result).toEqual({ ok: true, input: { params: {}, query: {}, headers: {}, body: undefined } });
});

it("a location with a schema is parsed by it", () => {
  const op: OperationDefinition = { ...base, querySchema: z.object({ q: z.coerce.number() }) };
  expect(validateInput(op, { params: {}, query: { q: "2" }, headers: {}, body: undefined })).toEqual({
    ok: true,
    input: { params: {}, query: { q: 2 }, headers: {}, body: undefined },
  });
  expect(validateInput(op, { params: {}, query: { q: "x" }, headers: {}, body: undefined })).toMatchObject({
    ok: false,
    location: "query",
  });
});
