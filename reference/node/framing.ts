// JSON-RPC 2.0 framing shared by every node-access dispatcher (EVM and Solana): parse the payload,
// answer a single request or a batch, echo ids byte for byte, never answer notifications, and turn
// failures into error objects. What a method does is the caller's `call`.
import {
  errorText,
  type IdText,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  idText,
  isPlainObject,
  isValidId,
  NULL_ID,
  needsRawId,
  PARSE_ERROR,
  type RpcErrorObject,
  resultText,
} from "./jsonrpc.ts";
import { rawIdOfObject, rawIdsOfBatch } from "./raw-ids.ts";

/** Runs one request (method known to be a string); throws RpcFault or any Error to answer an error. */
export type MethodCall = (method: string, request: Record<string, unknown>) => Promise<unknown>;

export async function answerPayload(
  text: string,
  call: MethodCall,
  maxBatchSize: number,
  toError: (error: unknown) => RpcErrorObject,
): Promise<string | undefined> {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return errorText(NULL_ID, { code: PARSE_ERROR, message: "parse error: the message is not valid JSON" });
  }
  try {
    if (Array.isArray(payload)) return await batch(payload, text, call, maxBatchSize, toError);
    const raw = isPlainObject(payload) && needsRawId(payload.id) ? rawIdOfObject(text) : undefined;
    return await single(payload, raw, call, toError);
  } catch {
    return errorText(NULL_ID, { code: INTERNAL_ERROR, message: "internal error" });
  }
}

async function batch(
  items: unknown[],
  text: string,
  call: MethodCall,
  maxBatchSize: number,
  toError: (error: unknown) => RpcErrorObject,
): Promise<string | undefined> {
  if (items.length === 0) return errorText(NULL_ID, { code: INVALID_REQUEST, message: "invalid request: empty batch" });
  if (items.length > maxBatchSize) {
    const message = `invalid request: a batch may hold at most ${maxBatchSize} requests, got ${items.length}`;
    return errorText(NULL_ID, { code: INVALID_REQUEST, message });
  }
  const raws = items.some((item) => isPlainObject(item) && needsRawId(item.id)) ? rawIdsOfBatch(text) : [];
  const answers = await Promise.all(items.map((item, i) => single(item, raws[i], call, toError)));
  const parts = answers.filter((answer): answer is string => answer !== undefined);
  return parts.length > 0 ? `[${parts.join(",")}]` : undefined;
}

async function single(
  request: unknown,
  rawId: string | undefined,
  call: MethodCall,
  toError: (error: unknown) => RpcErrorObject,
): Promise<string | undefined> {
  if (!isPlainObject(request)) return invalid(NULL_ID, "a request must be a JSON object");
  const hasId = Object.hasOwn(request, "id");
  if (hasId && !isValidId(request.id)) return invalid(NULL_ID, "id must be a string, a number or null");
  const id = hasId ? idText(request.id as string | number | null, rawId) : NULL_ID;
  if (request.jsonrpc !== "2.0") return invalid(id, 'jsonrpc must be exactly "2.0"');
  if (typeof request.method !== "string") return invalid(id, "method must be a string");
  try {
    const result = await call(request.method, request);
    return hasId ? resultText(id, result) : undefined;
  } catch (error) {
    return hasId ? errorText(id, toError(error)) : undefined; // notifications never get an answer
  }
}

function invalid(id: IdText, message: string): string {
  return errorText(id, { code: INVALID_REQUEST, message: `invalid request: ${message}` });
}
