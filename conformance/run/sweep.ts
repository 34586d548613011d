// Finds the webhooks and API keys certify created on the deployment, by their marker (marker.ts), and
// removes them: at the start of a run those of earlier runs whose lease has passed (cut short before
// their clean-up), at its end this run's own (also the ones created by a request whose answer never
// came back). Only records carrying the marker are touched, never a key the run was given, and never
// one whose lease still runs. Wallets cannot be deleted (the spec has no operation for it): they keep
// their marked names. Runs only when the run may create records (supply "create") and the spec's
// list operations exist, for a workspace already known (given, or found by the run); it never throws.

import { readList } from "../checks/list-reader.ts";
import { firstString } from "../provision/util.ts";
import type { LeftBehind } from "./cleanup.ts";
import type { CallArgs, Suite } from "./context.ts";
import { type MarkerFound, markerIn } from "./marker.ts";
import { findOperation } from "./operations.ts";

export interface SweepResult {
  /** What was removed, e.g. "webhook 5e0c… (custody-certify-1795702000-a1b2c3d4)". */
  removed: string[];
  left: LeftBehind[];
}

interface Kind {
  what: string;
  list: string;
  remove: string;
  idParam: string;
  /** The texts that may carry the marker, and whether the record is still there to remove. */
  marked(record: Record<string, unknown>): MarkerFound | undefined;
  live(record: Record<string, unknown>): boolean;
}

const KINDS: Kind[] = [
  {
    what: "webhook",
    list: "listWebhooks",
    remove: "deleteWebhook",
    idParam: "webhook_id",
    marked: (r) => markerIn(r.url, r.description),
    live: (r) => r.status === undefined || r.status === "active",
  },
  {
    what: "API key",
    list: "listApiKeys",
    remove: "revokeApiKey",
    idParam: "key_id",
    marked: (r) => markerIn(r.name),
    live: (r) => r.status === undefined || r.status === "active",
  },
];

export async function sweepCertifyRecords(suite: Suite, which: "expired" | "own"): Promise<SweepResult> {
  const result: SweepResult = { removed: [], left: [] };
  if (suite.supply !== "create") return result;
  const workspaceId = suite.config.workspaceId ?? suite.fixtures.peek("workspace");
  if (workspaceId === undefined) return result;
  const workspace = { value: workspaceId };
  const signal = AbortSignal.timeout(suite.options.timeoutMs);
  const given = givenKeyIds(suite);
  const now = Date.now();
  await Promise.all(
    KINDS.map(async (kind) => {
      if (!findOperation(suite.operations, kind.list) || !findOperation(suite.operations, kind.remove)) return;
      for (const record of await list(suite, kind, workspace.value, signal)) {
        const found = kind.marked(record);
        const id = firstString(record, "id", kind.idParam);
        if (!found || !id || !kind.live(record) || given.has(id)) continue;
        const ours = suite.marker.owns(found);
        if (which === "own" ? !ours : ours || found.expiresAt > now) continue;
        const label = `${kind.what} ${id}`;
        try {
          const ex = await suite.call(
            kind.remove,
            { params: { workspace_id: workspace.value, [kind.idParam]: id } },
            signal,
          );
          const status = ex.response.status;
          if ((status >= 200 && status < 300) || status === 404) result.removed.push(label);
          else result.left.push({ what: label, reason: `${kind.remove} answered HTTP ${status}` });
        } catch (err) {
          result.left.push({ what: label, reason: err instanceof Error ? err.message : String(err) });
        }
      }
    }),
  );
  return result;
}

/** Every record of the list, page by page when the operation pages (a marked record may sit past the first page). */
async function list(
  suite: Suite,
  kind: Kind,
  workspaceId: string,
  signal: AbortSignal,
): Promise<Array<Record<string, unknown>>> {
  try {
    const caller = {
      call: (operationId: string, args?: CallArgs) => suite.call(operationId, args, signal),
      operation: (id: string) => suite.operation(id),
    };
    const { items } = await readList(caller, kind.list, { params: { workspace_id: workspaceId } });
    return items.filter((i): i is Record<string, unknown> => i !== null && typeof i === "object");
  } catch {
    return [];
  }
}

/** Keys the run was given: never revoked, whatever their name. */
function givenKeyIds(suite: Suite): Set<string> {
  const c = suite.config;
  return new Set([c.admin, c.viewer, c.scoped, c.other?.credentials].flatMap((k) => (k ? [k.apiKey] : [])));
}
