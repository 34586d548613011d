import type { z } from "zod";
/** "<path.to.field>: <message>" of the first issue ("(root)" when the value itself is wrong). */
export declare function firstIssue(error: z.ZodError): string;
