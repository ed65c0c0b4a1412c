/**
 * Code-point order, as Go's sort.Strings (and so kubectl) orders names and labels. Unlike
 * localeCompare it reads the same in every locale and builds no ICU collator, which costs
 * milliseconds at the first call of a short run.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
