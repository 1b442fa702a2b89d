/**
 * Reading JSON a stranger wrote: {@linkcode parseJson} is `JSON.parse` kept
 * right where V8's object builder misreads escaped keys (V8 issue 521080746),
 * and {@linkcode readJsonByGrammar} the grammar reader it falls back on.
 *
 * @module
 */
export { parseJson } from "./parse_json.ts";
export { readJsonByGrammar } from "./read_json_grammar.ts";
