import type { LevelSpec } from './schema.js';

/** A level's `instead` words, as a list (one or several alternatives); kept apart from the schema so an audit does not load zod. */
export const insteadsOf = (spec: Pick<LevelSpec, 'instead'>): Array<{ when: NonNullable<LevelSpec['when']>; means: string }> =>
  spec.instead === undefined ? [] : Array.isArray(spec.instead) ? spec.instead : [spec.instead];
