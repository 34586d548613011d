// The seed's resource tables (sections 2.2-2.9) as data: each field with the type the seed gives
// and whether the seed marks it required. seed-walk.ts checks a payload against them at every depth,
// so a field rule lives here once, as in the seed, and no check hand-writes it.
//
// Transcribed from the seed's tables (spec/seed/custodial-wallet-interface.md); the `statement` of a
// table is its id in spec/trace.yaml. Only what a table states is here: its fields' types, required
// fields (only 2.3 and 2.4 have a Required column), nested resources (2.2 `asset`/`network`, 2.3
// `network`) and array items (2.5 `withdrawal_approvals`: array of objects). Extra fields, enums and
// id formats are not stated by the seed, so they are the deployment's choice.

/** The seed's resource tables, by the name the seed gives them. */
export type SeedTableName =
  | "WalletBalance"
  | "Asset"
  | "Network"
  | "Withdrawal"
  | "WalletCreationStatus"
  | "WebhookDelivery"
  | "WebhookDeleteResult"
  | "WebhookVerificationKey";

/** A field's type as the seed writes it. `int64` is 2.4's "integer (int64)". */
export type SeedScalar = "string" | "integer" | "int64" | "boolean" | "object" | "date-time";

export type SeedType = SeedScalar | { table: SeedTableName } | { arrayOf: SeedType };

export interface SeedField {
  type: SeedType;
  /** Marked "yes" in the seed's Required column. */
  required?: boolean;
}

export interface SeedTable {
  /** The seed section, e.g. "2.3". */
  section: string;
  /** The spec/trace.yaml statement the table is. */
  statement: string;
  fields: Readonly<Record<string, SeedField>>;
}

/** Fields of one type, written as the seed lists them. */
function all(type: SeedType, ...names: string[]): Record<string, SeedField> {
  return Object.fromEntries(names.map((name) => [name, { type }]));
}

const required = (type: SeedType): SeedField => ({ type, required: true });

export const SEED_TABLES: Readonly<Record<SeedTableName, SeedTable>> = {
  WalletBalance: {
    section: "2.2",
    statement: "s2.2.wallet-balance",
    fields: {
      ...all(
        "string",
        "wallet_id",
        "asset_id",
        "symbol",
        "name",
        "balance",
        "available_balance",
        "total_balance",
        "on_hold",
        "balance_usd",
        "usd_value",
        "value_usd",
        "price_usd",
      ),
      decimals: { type: "integer" },
      asset: { type: { table: "Asset" } },
      network: { type: { table: "Network" } },
      refreshed_at: { type: "date-time" },
    },
  },
  Asset: {
    section: "2.3",
    statement: "s2.3.asset",
    fields: {
      id: required("string"),
      ...all("string", "name", "symbol"),
      decimals: { type: "integer" },
      ...all("string", "address", "contract_address", "asset_type"),
      is_native: { type: "boolean" },
      address_type: { type: "string" },
      is_whitelisted: { type: "boolean" },
      network_id: { type: "string" },
      network: { type: { table: "Network" } },
      ...all("string", "price_usd", "logo_url"),
    },
  },
  Network: {
    section: "2.4",
    statement: "s2.4.network",
    fields: {
      id: required("string"),
      name: { type: "string" },
      is_evm: { type: "boolean" },
      chain_id: { type: "int64" },
      native_currency: { type: "string" },
      is_testnet: { type: "boolean" },
      internal_code: { type: "string" },
      confirmation_blocks: { type: "integer" },
      disabled: { type: "boolean" },
      logo_url: { type: "string" },
    },
  },
  Withdrawal: {
    section: "2.5",
    statement: "s2.5.withdrawal",
    fields: {
      ...all(
        "string",
        "id",
        "withdrawal_id",
        "wallet_id",
        "asset_id",
        "network_id",
        "amount",
        "recipient_address",
        "status",
        "tx_hash",
      ),
      block_number: { type: "integer" },
      ...all("string", "block_hash", "gas_used", "effective_gas_price_wei"),
      confirmed_at: { type: "date-time" },
      ...all("string", "error", "status_reason"),
      transaction: { type: "object" },
      withdrawal_approvals: { type: { arrayOf: "object" } },
    },
  },
  WalletCreationStatus: {
    section: "2.6",
    statement: "s2.6.wallet-creation-status",
    fields: {
      ...all(
        "string",
        "id",
        "wallet_id",
        "status",
        "workspace_id",
        "name",
        "wallet_type",
        "status_reason",
        "mpc_correlation_id",
      ),
      ...all("date-time", "created_at", "updated_at", "completed_at"),
    },
  },
  WebhookDelivery: {
    section: "2.7",
    statement: "s2.7.webhook-delivery",
    fields: {
      ...all("string", "id", "delivery_id", "webhook_id", "event_type", "event_id", "status"),
      attempt_count: { type: "integer" },
      workspace_id: { type: "string" },
      ...all("date-time", "next_attempt_at", "last_attempt_at", "delivered_at"),
      response_status: { type: "integer" },
      ...all("string", "response_body", "error"),
      payload: { type: "object" },
      ...all("date-time", "created_at", "updated_at"),
    },
  },
  WebhookDeleteResult: {
    section: "2.8",
    statement: "s2.8.webhook-delete-result",
    fields: all("string", "id", "webhook_id", "status"),
  },
  WebhookVerificationKey: {
    section: "2.9",
    statement: "s2.9.webhook-verification-key",
    fields: all("string", "public_key"),
  },
};
