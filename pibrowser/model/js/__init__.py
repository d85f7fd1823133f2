"""What JavaScript does, replicated where pi's answers depend on it to the byte.

pi runs on V8, and some of its answers follow from JavaScript semantics rather
than from its own code: `Date.parse` (date), `Array.prototype.sort`'s TimSort
with a comparator that is not a total order (sort), JSON.parse past any nesting
limit (deepjson), JSON.stringify's bytes (stringify), and truthiness, trimming,
`String()` and `Number()` of values (value). Each module is tested against V8's
own answers.
"""
