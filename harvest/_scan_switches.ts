/**
 * Switches for the scanner's fast paths, for tests only: with a fast path off, the full grammar reads every word,
 * and a property test checks that both give the same tokens. Never re-exported.
 *
 * @module
 */

/**
 * Whether words take the fast paths (see `fast_paths.ts`: links, bare numbers, compound words, phone numbers in
 * groups) and words of Latin-1 letters the plain-word path (see `WORD_LOWER`).
 */
export const scanSwitches = { fastPaths: true };
