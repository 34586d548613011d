// The id scanner must return the exact source text of a numeric "id" member, whatever surrounds it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rawIdOfObject, rawIdsOfBatch } from "../reference/node/raw-ids.ts";

/** Any number the JSON grammar allows, as text. */
const jsonNumberText = fc
  .tuple(
    fc.constantFrom("", "-"),
    fc.oneof(
      fc.constant("0"),
      fc.tuple(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^[0-9]{0,25}$/)).map(([d, rest]) => `${d}${rest}`),
    ),
    fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), fc.stringMatching(/^[0-9]{1,4}$/)), {
      nil: undefined,
    }),
  )
  .map(
    ([sign, int, frac, exp]) =>
      `${sign}${int}${frac === undefined ? "" : `.${frac}`}${exp === undefined ? "" : exp.join("")}`,
  );

const space = fc.constantFrom("", " ", "\n", "\t ", "\r\n");

/** An object text with the given raw id text placed among arbitrary other members. */
const objectWithId = (idText: string) =>
  fc
    .tuple(
      fc.dictionary(
        fc.string().filter((k) => k !== "id"),
        fc.jsonValue(),
        { maxKeys: 4 },
      ),
      fc.nat(),
      space,
      space,
    )
    .map(([others, position, s1, s2]) => {
      const members = Object.entries(others).map(
        ([k, v]) => `${s1}${JSON.stringify(k)}${s2}:${s1}${JSON.stringify(v)}`,
      );
      members.splice(position % (members.length + 1), 0, `${s2}"id"${s1}:${s2}${idText}${s1}`);
      return `${s1}{${members.join(",")}}${s2}`;
    });

describe("raw id scanner", () => {
  it("finds the exact text of a numeric id in a single request", () => {
    fc.assert(
      fc.property(
        jsonNumberText.chain((id) => objectWithId(id).map((text) => ({ id, text }))),
        ({ id, text }) => {
          JSON.parse(text); // the generator only makes valid JSON
          expect(rawIdOfObject(text)).toBe(id);
        },
      ),
    );
  });

  it("finds the ids of every batch element, aligned with the elements", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            jsonNumberText.chain((id) => objectWithId(id).map((text) => ({ id, text }))),
            fc.jsonValue().map((v) => ({ id: undefined, text: JSON.stringify(v) ?? "null" })),
          ),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        (items) => {
          const text = `[${items.map((item) => item.text).join(" ,\n")}]`;
          JSON.parse(text);
          const expected = items.map((item) => (item.id !== undefined ? item.id : numericIdOf(item.text)));
          expect(rawIdsOfBatch(text)).toEqual(expected);
        },
      ),
    );
  });

  it("uses the last duplicate id, decodes escaped keys and ignores non-numeric ids", () => {
    expect(rawIdOfObject('{"id":1,"id":2.50}')).toBe("2.50");
    expect(rawIdOfObject('{"\\u0069d":1e400}')).toBe("1e400");
    expect(rawIdOfObject('{"id":"12345678901234567890"}')).toBeUndefined();
    expect(rawIdOfObject('{"x":{"id":5},"method":"a"}')).toBeUndefined();
    expect(rawIdOfObject("[1]")).toBeUndefined();
  });
});

// For arbitrary JSON values used as batch elements: a plain object with a top-level numeric id has one.
function numericIdOf(text: string): string | undefined {
  const value = JSON.parse(text);
  if (value === null || typeof value !== "object" || Array.isArray(value) || typeof value.id !== "number")
    return undefined;
  return JSON.stringify(value.id); // fc.jsonValue numbers round-trip through JSON.stringify
}
