/**
 * Slashes trimmed off the ends of a path or URL. A loop, not /\/+$/: that regex backtracks
 * quadratically on a long run of slashes that does not end the string (a crafted request path).
 */

const SLASH = 0x2f;

export function trimTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === SLASH) end--;
  return end === s.length ? s : s.slice(0, end);
}

export function trimSlashes(s: string): string {
  let start = 0;
  while (start < s.length && s.charCodeAt(start) === SLASH) start++;
  return trimTrailingSlashes(s.slice(start));
}
