/**
 * Typed values ("entities") and their canonical forms: what an argument is
 * compared by when it is an e-mail address, a URL, a host, an IBAN, a card or
 * phone number, a number or an amount.
 *
 * @module
 */
import { scanText } from "./scan_text.ts";

/** The types of value pab reads out of text. */
export type EntityType = "email" | "url" | "host" | "link" | "iban" | "card" | "phone" | "number" | "amount";

/** One typed value found in text. */
export interface Entity {
  /** What kind of value it is. */
  readonly type: EntityType;
  /** Its canonical form: two writings of the same value have the same one (`1,000` and `1000` are `1000`). */
  readonly canonical: string;
  /** The text it was read from, after folding (invisible characters dropped, NFKC). */
  readonly text: string;
}

const TYPES: Readonly<Record<string, EntityType>> = {
  email: "email",
  url: "url",
  host: "host",
  link: "link",
  iban: "iban",
  card: "card",
  tel: "phone",
  num: "number",
};

/** The entity a typed token stands for, or `undefined` for a plain token. */
export function entityOfToken(token: string, raw = ""): Entity | undefined {
  const colon = token.indexOf(":");
  if (colon < 2) return undefined;
  const type = TYPES[token.slice(0, colon)];
  return type ? { type, canonical: token.slice(colon + 1), text: raw } : undefined;
}

/**
 * Every typed value in `text`, in order. A value is read whole: the domain of
 * an address or the digits of a reference are not values of their own, and a
 * list (`120, 500 and 80`) is three numbers, never `120,500`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractEntities } from "./entities.ts";
 * assert.deepEqual(
 *   extractEntities("Pay USD 1,000 to DE89 3704 0044 0532 0130 00, cc alice@Corp.example").map((e) => e.canonical),
 *   ["usd 1000", "de89370400440532013000", "alice@corp.example"],
 * );
 * ```
 */
export function extractEntities(text: string): Entity[] {
  const entities: Entity[] = [];
  let currency: { code: string; raw: string } | undefined;
  scanText(text, (token, raw) => {
    if (raw !== undefined && token.startsWith("cur:")) {
      currency = { code: token.slice(4), raw };
      return;
    }
    const entity = entityOfToken(token, raw);
    if (entity && currency && entity.type === "number") {
      entities.push({ type: "amount", canonical: `${currency.code} ${entity.canonical}`, text: currency.raw });
    } else if (entity) entities.push(entity);
    currency = undefined;
  });
  return entities;
}

/**
 * The entity that `value` is, when the whole of it is one typed value (such as
 * an argument `"+41 44 668 18 00"`); `undefined` when it is free text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalEntity } from "./entities.ts";
 * assert.equal(canonicalEntity("1,000.00")?.canonical, "1000");
 * assert.equal(canonicalEntity("https://BÜCHER.example")?.canonical, "https://xn--bcher-kva.example/");
 * assert.equal(canonicalEntity("send it to bob@corp.example"), undefined);
 * ```
 */
export function canonicalEntity(value: string): Entity | undefined {
  const tokens: { token: string; raw?: string }[] = [];
  scanText(value, (token, raw) => tokens.push({ token, raw }));
  if (tokens.length === 1) return entityOfToken(tokens[0].token, tokens[0].raw);
  if (tokens.length === 2 && tokens[0].token.startsWith("cur:") && tokens[1].token.startsWith("num:")) {
    return {
      type: "amount",
      canonical: `${tokens[0].token.slice(4)} ${tokens[1].token.slice(4)}`,
      text: tokens[0].raw ?? value,
    };
  }
  return undefined;
}
