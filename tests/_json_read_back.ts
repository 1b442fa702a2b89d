// What a JSON text reads back as, by the JSON grammar, without V8's JSON.parse for objects: that JSON.parse
// (Deno 2.9.6, V8 15.0) can misread an object's escaped key after it has parsed an object with the same keys
// before and a key "\\" (V8 issue 521080746, nodejs/node#63785; see tests/parse_json_properties_test.ts), so a
// reference built on it fails at random. The reader is the one pab's adapters fall back on.
export { readJsonByGrammar as readBack } from "../adapters/json/mod.ts";
