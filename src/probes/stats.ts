/**
 * What the probe engines actually did in this process: how many files each language's parser
 * parsed. The benchmark prints it to show every file is parsed at most once per language however
 * many probes run.
 */
export const parseCounts: Record<string, number> = {};

export function countParse(language: string): void {
  parseCounts[language] = (parseCounts[language] ?? 0) + 1;
}

export function resetParseCounts(): void {
  for (const k of Object.keys(parseCounts)) delete parseCounts[k];
}
