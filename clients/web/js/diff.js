// Word-level differences between two tellings, for the spin explorer: which words of each the other lacks.

const LIMIT = 4_000_000; // cells of the longest-common-subsequence table; past it, compare sentences instead

/** Split text into words and the spaces between them, keeping both so the text can be rebuilt exactly. */
export function tokens(text) {
  return text.match(/\s+|[^\s]+/g) || [];
}

/**
 * For two token lists, which tokens are shared: two arrays of booleans (true = this token is in the
 * longest common subsequence, so unchanged). Spaces always count as shared, so only words are marked.
 */
export function shared(before, after) {
  const a = before.map(key);
  const b = after.map(key);
  const n = a.length;
  const m = b.length;
  if (n * m > LIMIT) return bySentence(before, after);
  // lengths[i * (m + 1) + j]: the longest common subsequence of a[i:] and b[j:].
  const lengths = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      const here = i * (m + 1) + j;
      lengths[here] = a[i] === b[j] ? lengths[here + m + 2] + 1 : Math.max(lengths[here + m + 1], lengths[here + 1]);
    }
  }
  const keptA = before.map((token) => /^\s+$/.test(token));
  const keptB = after.map((token) => /^\s+$/.test(token));
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      keptA[i] = true;
      keptB[j] = true;
      i += 1;
      j += 1;
    } else if (lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1]) {
      i += 1;
    } else {
      j += 1;
    }
  }
  return [keptA, keptB];
}

function key(token) {
  return /^\s+$/.test(token) ? " " : token;
}

/** Too long to compare word by word: a word is shared when its whole sentence appears in the other text. */
function bySentence(before, after) {
  const sentences = (list) => {
    const found = [];
    let current = [];
    for (const token of list) {
      current.push(token);
      if (/[.!?]["'”’]?$/.test(token)) {
        found.push(current);
        current = [];
      }
    }
    if (current.length) found.push(current);
    return found;
  };
  const mark = (mine, theirs) => {
    const known = new Set(sentences(theirs).map((words) => words.join("").trim()));
    return sentences(mine).flatMap((words) => {
      const same = known.has(words.join("").trim());
      return words.map((token) => same || /^\s+$/.test(token));
    });
  };
  return [mark(before, after), mark(after, before)];
}
