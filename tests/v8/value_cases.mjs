// Writes value_cases.json: V8's own answers for the JS value rules pibrowser replays
// (pibrowser/model/js/value.py): Number::toString, Number(string), String(value),
// truthiness and String.prototype.trim. tests/test_js_value.py checks them. Run with Node:
//   node tests/v8/value_cases.mjs > tests/v8/value_cases.json
// The random doubles are seeded, so running it again gives the same file.

import { seeded } from "./random.mjs";

const random = seeded(20261205);

// Doubles from every magnitude: random bit patterns, powers of ten and their neighbours.
const view = new DataView(new ArrayBuffer(8));
const doubles = [0.1, 0.2 + 0.1, 1 / 3, 5e-324, 1.7976931348623157e308, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 123456789012345680000, 1e21, 1e-7, 1.5e-7, 0.000001, 1e-6 * 1.5];
for (let exponent = -30; exponent <= 30; exponent++) doubles.push(10 ** exponent, 1.25 * 10 ** exponent, -(10 ** exponent) * 7.000001);
while (doubles.length < 600) {
  view.setUint32(0, Math.floor(random() * 2 ** 32));
  view.setUint32(4, Math.floor(random() * 2 ** 32));
  const value = view.getFloat64(0);
  if (Number.isFinite(value)) doubles.push(value);
}
const numberStrings = doubles.map((value) => [value, String(value)]);

const numericTexts = ["", " ", "0", "-0", "+1", "1.", ".5", "5.", "1e3", "1E-3", "1e", "e3", ".", "+.5", "-.5e1", "Infinity",
  "-Infinity", "+Infinity", "infinity", "inf", "NaN", "0x10", "0X1f", "0xg", "0x", "+0x10", "-0x10", "0o17", "0O8", "0b101",
  "0b2", "0b", "010", "1_000", "1,000", " 12 ", "\t\n12\r\n", "\u00a012\u3000", "\ufeff7", "\u180e7", "\u200b7", "\u0663",
  "\uff11", "12abc", "1 2", "--1", "+-1", "1e400", "-1e400", "1e-400", "9007199254740993", "0.1e1", "00", "0.0.0"];
const numbers = numericTexts.map((text) => [text, String(Number(text))]);

const values = [null, true, false, 0, -0, 1.5, -2e-7, 1e21, 2 ** 53 + 2, "text", "", [], [null], [1, [2, [3]]], ["a", null, "b"],
  [true, false], [{}], {}, { a: 1 }, [[], []]];
const strings = values.map((value) => [value, String(value), Boolean(value)]);

// Every code point that is white space to some engine or library, around a letter.
const spaces = [9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 6158, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199,
  8200, 8201, 8202, 8203, 8232, 8233, 8239, 8287, 12288, 65279];
const trims = spaces.map((code) => { const c = String.fromCharCode(code); const text = c + "a" + c + "b" + c; return [text, text.trim()]; });

process.stdout.write(JSON.stringify({ node: process.version, numberStrings, numbers, strings, trims }) + "\n");
