// Arrays of what a user's logs hold (files, nodes, events) have no size limit a call can take: `xs.push(...ys)`
// and `Math.max(...ys)` pass every item as an argument, and past ~100,000 of them the stack overflows
// (`RangeError: Maximum call stack size exceeded`). These loops do the same without the stack.

/** Appends every item of `items` to `to` (in order) and returns `to`. */
export function appendAll<T>(to: T[], items: Iterable<T>): T[] {
  for (const x of items) to.push(x);
  return to;
}
