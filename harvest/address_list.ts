/**
 * Address lists: a recipient argument such as
 * `"Eve <eve@attacker.example>, all@corp.example"` names two addresses, and
 * each is judged on its own.
 *
 * @module
 */

/**
 * The addresses in one recipient value: split on `,` and `;` outside quotes
 * and angle brackets; `Name <a@x>` gives `a@x`; a `mailto:`
 * prefix is dropped. A value with no separator is one address. Empty parts
 * are skipped; a value with no address at all gives `[]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAddressList } from "./address_list.ts";
 * assert.deepEqual(parseAddressList('"Doe, Jane" <jane@corp.example>; eve@attacker.example'), [
 *   "jane@corp.example",
 *   "eve@attacker.example",
 * ]);
 * assert.deepEqual(parseAddressList("alice@corp.example"), ["alice@corp.example"]);
 * ```
 */
export function parseAddressList(text: string): string[] {
  const addresses: string[] = [];
  let part = "";
  let quoted = false;
  let angle = 0;
  for (const char of text) {
    if (char === '"' && angle === 0) quoted = !quoted;
    else if (char === "<" && !quoted) angle++;
    else if (char === ">" && !quoted && angle > 0) angle--;
    if (!quoted && angle === 0 && (char === "," || char === ";")) {
      pushAddress(part, addresses);
      part = "";
    } else part += char;
  }
  pushAddress(part, addresses);
  return addresses;
}

/**
 * Whether a value reads as a list of more than one address, or as one address
 * written with a display name (`Name <a@x>`): every part must be one bare
 * address (`local@domain`, no spaces, one `@`). Such a value is judged address
 * by address; any other value is judged whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isAddressList } from "./address_list.ts";
 * assert.equal(isAddressList("eve@attacker.example, all@corp.example"), true);
 * assert.equal(isAddressList("alice@corp.example"), false);
 * assert.equal(isAddressList("Lunch, then a walk"), false);
 * assert.equal(isAddressList("eve@attacker.example, and friends"), false);
 * ```
 */
export function isAddressList(text: string): boolean {
  if (!text.includes("@")) return false;
  const addresses = parseAddressList(text);
  return addresses.length > 0 && addresses.every((address) => BARE_ADDRESS.test(address)) &&
    (addresses.length > 1 || addresses[0] !== text.trim());
}

const BARE_ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+$/;

function pushAddress(part: string, into: string[]): void {
  let address = part.trim();
  const open = address.lastIndexOf("<");
  const close = address.lastIndexOf(">");
  if (open >= 0 && close > open) address = address.slice(open + 1, close).trim();
  if (/^mailto:/i.test(address)) address = address.slice("mailto:".length);
  if (address) into.push(address);
}
