/**
 * Switches for the scanner's fast paths, for tests only: with a fast path off, the full grammar reads every word,
 * and a property test checks that both give the same tokens. Never re-exported.
 *
 * @module
 */

/**
 * Whether bare numbers and compound words take their fast paths (see `fast_paths.ts`), whether words of Latin-1
 * letters take the plain-word path (see `WORD_LOWER`), whether grouped IBANs are checked in one pass, and whether a
 * word that is one link (see `scanLinkWord`) and an international phone number in groups (see `scanPhoneJoin`) are
 * read where they stand.
 */
export const scanSwitches = {
  bareNumbers: true,
  compoundWords: true,
  latinWords: true,
  ibanJoins: true,
  links: true,
  phoneJoins: true,
};
