import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import type { HandlerInput, OperationDefinition } from "./types.ts";
export type InputLocation = "params" | "query" | "headers" | "body";
/** `body.items[0].amount` from a location and a zod issue path. */
export declare function fieldPath(location: InputLocation, path: readonly PropertyKey[]): string;
export declare function formatIssues(location: InputLocation, issues: readonly z.core.$ZodIssue[]): string;
/** Query string as a record: a repeated key becomes an array (which a scalar schema then refuses). */
export declare function queryRecord(search: string): Record<string, string | string[]>;
/** Request headers with lower-case names; a header sent more than once becomes an array. */
export declare function headersRecord(req: IncomingMessage): Record<string, string | string[]>;
/**
 * The keys a schema reads when it is a zod object that drops unknown keys (the default mode): its
 * result then depends on those keys only, so the router hands it just them. Undefined for any other
 * schema (strict, loose, catchall, transformed), which gets every header.
 */
export declare function readKeys(schema: z.ZodType | undefined): readonly string[] | undefined;
/**
 * headersRecord restricted to `names`: the same values for those names, without building the record
 * of every header (most operations read none, and then no header is looked at).
 */
export declare function headersSubset(req: IncomingMessage, names: readonly string[]): Record<string, string | string[]>;
export type ValidationResult = {
    ok: true;
    input: HandlerInput;
} | {
    ok: false;
    message: string;
    location: InputLocation;
};
/** Validates params, query, headers and body in that order; the first location that fails is reported. */
export declare function validateInput(op: OperationDefinition, raw: HandlerInput): ValidationResult;
