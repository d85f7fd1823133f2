// Writes date_cases.json: V8's own `new Date(text).getTime()` for many date strings.
//
// pi reads entry timestamps with `new Date(entry.timestamp)`: they order siblings and become
// the epoch-millisecond time of synthesised messages. pibrowser replays V8's date parser
// (pibrowser/model/js/date.py) and tests/test_js_date.py checks it against these answers,
// in each time zone below (a date without a zone is local time). Run with Node:
//   node tests/v8/date_cases.mjs > tests/v8/date_cases.json
// The strings are seeded, so running it again gives the same file.

import { seeded } from "./random.mjs";

const random = seeded(20261204);
const below = (n) => Math.floor(random() * n);
const pick = (list) => list[below(list.length)];
const digits = (n) => Array.from({ length: n }, () => below(10)).join("");
const pad = (value, width) => String(value).padStart(width, "0");

// The ECMAScript date-time format, right and a little wrong.
function iso() {
  const year = pick([pad(1970 + below(80), 4), pad(below(10000), 4), "+" + pad(below(300000), 6), "-" + pad(below(300000), 6), "-000000", digits(pick([2, 3, 5]))]);
  let text = year;
  if (random() < 0.85) text += "-" + pick([pad(1 + below(12), 2), pad(below(14), 2), String(1 + below(9))]);
  if (random() < 0.8) text += "-" + pick([pad(1 + below(28), 2), pad(below(33), 2), String(1 + below(9))]);
  if (random() < 0.75) {
    text += pick(["T", "T", "t", " ", "  "]);
    text += pick([pad(below(24), 2), pad(below(26), 2), String(below(10)), "24"]);
    if (random() < 0.9) text += ":" + pick([pad(below(60), 2), pad(below(62), 2), String(below(10))]);
    if (random() < 0.7) text += ":" + pick([pad(below(60), 2), pad(below(62), 2), "60"]);
    if (random() < 0.5) text += pick([".", ","]) + digits(1 + below(9));
  }
  if (random() < 0.7) {
    text += pick(["Z", "z", "+" + pad(below(24), 2) + ":" + pad(below(60), 2), "-" + pad(below(15), 2) + ":" + pad(below(60), 2),
      "+" + pad(below(24), 2) + pad(below(60), 2), "-" + pad(below(24), 2), " GMT", " UTC", " EST", " PDT", " GMT+0100", " UTC-5", "+25:00", "+01:60"]);
  }
  if (random() < 0.1) text += pick([" ", "x", " (comment)", ")", "garbage", "."]);
  return text;
}

// What V8's legacy parser takes: words, numbers and punctuation in many orders.
const WORDS = ["Jan", "feb", "MARCH", "Apr", "may", "June", "jul", "Aug", "sept", "Oct", "nov", "December",
  "Mon", "tue", "Wednesday", "Thu", "fri", "Sat", "sun", "am", "PM", "a.m.", "UT", "UTC", "GMT", "Z", "EST", "edt", "CST",
  "cdt", "MST", "mdt", "PST", "pdt", "T", "t", "noon", "xyz", "Octopus", "ju"];
const PUNCT = [" ", " ", " ", ",", ", ", "/", "-", ".", ":", "+", "(", ")", "  ", "\t", "\u00a0", "\u3000"];
function legacyToken() {
  const kind = random();
  if (kind < 0.4) return String(pick([below(13), below(32), below(60), 1900 + below(200), below(100), below(100000), below(10000000)]));
  if (kind < 0.65) return pick(WORDS);
  return pick(PUNCT);
}
function legacy() {
  const shapes = [
    () => `${pick(WORDS.slice(0, 12))} ${1 + below(31)} ${1950 + below(100)}`,
    () => `${1 + below(31)} ${pick(WORDS.slice(0, 12))} ${1950 + below(100)} ${pad(below(24), 2)}:${pad(below(60), 2)}${pick(["", ":" + pad(below(60), 2)])} ${pick(["GMT", "UTC", "GMT+0100", "GMT-0530", "+0200", "EST", "", "PM", "am"])}`,
    () => `${pick(WORDS.slice(12, 19))}, ${1 + below(31)} ${pick(WORDS.slice(0, 12))} ${1950 + below(100)} ${pad(below(24), 2)}:${pad(below(60), 2)}:${pad(below(60), 2)} GMT`,
    () => `${1 + below(13)}/${1 + below(32)}/${pick([1950 + below(100), below(100), below(10000)])}${pick(["", " " + below(13) + ":" + pad(below(60), 2) + pick(["", " am", " PM", "pm"])])}`,
    () => `${1950 + below(100)}/${1 + below(12)}/${1 + below(28)} ${below(24)}:${pad(below(60), 2)}${pick(["", ":" + pad(below(60), 2), ".5", " (local)"])}`,
    () => `${1950 + below(100)}-${pad(1 + below(12), 2)}-${pad(1 + below(28), 2)} ${below(24)}:${pad(below(60), 2)}${pick(["", "Z", " Z", " +01:00", " GMT-7", "+0530"])}`,
    () => Array.from({ length: 1 + below(9) }, legacyToken).join(""),
    () => Array.from({ length: 1 + below(6) }, legacyToken).join(" "),
  ];
  return pick(shapes)();
}

const SPECIAL = ["", " ", "Z", "T", "0", "-1", "+1", "2026", "2026-", "2026-10", "2026-10-30", "2026-10-30T", "2026-10-30T09",
  "2026-10-30T09:00", "2026-10-30T09:00:00.000Z", "2026-10-30T09:00:00.000+01:00", "2026-10-30T09:00:00.0000001Z",
  "\uff12\uff10\uff12\uff16-10-30", "2026-10-30T24:00:00Z", "2026-10-30T24:00:01Z", "2026-02-30", "2026-02-29", "2024-02-29",
  "-271821-04-20T00:00:00Z", "-271821-04-19T23:59:59.999Z", "+275760-09-13T00:00:00Z", "+275760-09-13T00:00:00.001Z",
  "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)", "(Oct) 30 2026", "Oct 30 2026 (", "12:00 Oct 30 2026",
  "2026 Oct 30", "30.10.2026", "2026.10.30", "10-30-2026", "1 2 3", "1 2 3 4 5 6 7 8", "Oct", "Oct 30", "30 2026",
  "2026-10-30T09:00:00 PM", "2026-10-30 09:00:00 +0000", "Sat, 01-Jan-2000 08:00:00 GMT", "Saturday, January 1, 2000",
  "2000-01-01T00:00:00.000-00:00", "+002026-10-30T00:00:00Z", "-002026-10-30T00:00:00Z", "2026-10-30T09:00:00+0100",
  "2026-03-08T02:30:00", "2026-11-01T01:30:00", "2026-03-29 02:30", "2026-10-25 02:30", "1969-12-31T23:59:59.999",
  "0000-01-01T00:00:00", "0099-06-15", "99-06-15", "6/15/99", "6/15/2099", "June 15, 99 3:04:05 PM EDT",
  "2026-10-30T09:00:00.5Z", "2026-10-30T09:00:60Z", "2026-10-30T09:60Z", "2026-13-01", "2026-00-10", "2026-10-00",
  // pi's own shape with a field out of range, and the corners of the format's grammar
  "2026-13-30T09:00:00.000Z", "2026-10-32T09:00:00.000Z", "2026-10-30T24:00:00.000Z", "2026-10-30T23:60:00.000Z",
  "2026-10-30T23:59:60.000Z", "2026-10-30T24:00:00.001Z", "2026-10-30T24:00:00.000Z", "2026-10-30T09:00:00.Z",
  "2026-10-30T09:00+2500", "2026-10-30T09:00+0160", "2026-10-30T09:00+01", "2026-10-30T09:00+01:5", "2026-10-30T09:00+1:00",
  "2026-10-30T09:00+01:00:00", "2026-10-30 GMT+9999999999", "2026-10-30 GMT+99999", "Oct 30 2026 10::", "Oct 30 2026 10::20",
  "Oct 30 2026 1:2:3:4:5", "Oct 30 2026 10:20.", "Oct 30 2026 10:20:30.", "Oct 30 2026 10.20", "Oct 30 2026 10:20 10::",
  "10:: Oct 30 2026", "Oct 30 2026 13:00 PM", "Oct 30 2026 12:00 AM", "Oct 30 2026 0:00 am", "Oct 30 2026 10:20:30.456789",
  "+275760-09-12T00:00:00", "-271821-04-21T00:00:00", "+275760-09-13T00:00:00", "-271821-04-20T00:00:00", "Jan 1 275760", "Jan 1 -271821",
  // found by searching for strings that reach the parser's rarer steps
  "Oct 30 2026 10:20:30 10:", "Oct 30 2026 10:20:30:40.5", "2:.30PM,12345", "2Z2-+3012345::", "Oct 30 2026 10:20:30 10:40", "1:2:3 4:"];

// Values that are not strings: JSON.parse gives null, booleans, numbers, arrays and objects.
const VALUES = [null, true, false, 0, -0.5, 1.9, -1.9, 1793350800000, 8.64e15, -8.64e15, 8.64e15 + 1, 1e300,
  ["2026-10-30"], [2026, 10, 30], [], [[]], [null], {}, { a: 1 }];

const ZONES = ["UTC", "America/New_York", "Asia/Kolkata", "Europe/Berlin"];
const texts = [...SPECIAL];
const seen = new Set(texts);
while (texts.length < 1500) {
  const text = random() < 0.5 ? iso() : legacy();
  if (!seen.has(text)) { seen.add(text); texts.push(text); }
}
const answers = {};
for (const zone of ZONES) {
  process.env.TZ = zone;  // Node reads a changed TZ on the next date operation
  answers[zone] = texts.map((text) => { const ms = new Date(text).getTime(); return Number.isNaN(ms) ? null : ms; });
}
process.env.TZ = "UTC";
const values = VALUES.map((value) => { const ms = new Date(value).getTime(); return [value, Number.isNaN(ms) ? null : ms]; });
process.stdout.write(JSON.stringify({ node: process.version, zones: ZONES, texts, answers, values }) + "\n");
