/**
 * A unified diff of two texts, line by line (longest common subsequence over the lines between the common
 * head and tail), with three lines of context: what `api:check` prints when the API differs from the report.
 */

type Op = { kind: " " | "-" | "+"; line: string };

function ops(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  // lcs[i * (y.length + 1) + j]: the longest common subsequence of x[i..] and y[j..].
  const width = y.length + 1;
  const lcs = new Int32Array((x.length + 1) * width);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i * width + j] = x[i] === y[j]
        ? lcs[(i + 1) * width + j + 1] + 1
        : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const middle: Op[] = [];
  let i = 0, j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      middle.push({ kind: " ", line: x[i++] });
      j++;
    } else if (j < y.length && (i === x.length || lcs[i * width + j + 1] >= lcs[(i + 1) * width + j])) {
      middle.push({ kind: "+", line: y[j++] });
    } else {
      middle.push({ kind: "-", line: x[i++] });
    }
  }
  const same = (line: string): Op => ({ kind: " ", line });
  return [...a.slice(0, head).map(same), ...middle, ...a.slice(a.length - tail).map(same)];
}

/** `--- a` / `+++ b` and `@@` hunks, or "" when the texts are equal. */
export function unifiedDiff(before: string, after: string, nameBefore: string, nameAfter: string): string {
  if (before === after) return "";
  const all = ops(before.split("\n"), after.split("\n"));
  const CONTEXT = 3;
  const out = [`--- ${nameBefore}`, `+++ ${nameAfter}`];
  let k = 0;
  while (k < all.length) {
    if (all[k].kind === " ") {
      k++;
      continue;
    }
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    // Extend the hunk while the next change is within twice the context.
    while (end < all.length) {
      let next = end;
      while (next < all.length && all[next].kind !== " ") next++;
      let gap = next;
      while (gap < all.length && all[gap].kind === " ") gap++;
      end = next;
      if (gap === all.length || gap - next > 2 * CONTEXT) break;
      end = gap;
    }
    const stop = Math.min(all.length, end + CONTEXT);
    const lineA = all.slice(0, start).filter((op) => op.kind !== "+").length + 1;
    const lineB = all.slice(0, start).filter((op) => op.kind !== "-").length + 1;
    const hunk = all.slice(start, stop);
    const countA = hunk.filter((op) => op.kind !== "+").length;
    const countB = hunk.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${lineA},${countA} +${lineB},${countB} @@`, ...hunk.map((op) => op.kind + op.line));
    k = stop;
  }
  return out.join("\n") + "\n";
}
