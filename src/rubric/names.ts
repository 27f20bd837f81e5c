/**
 * The rubric's fixed vocabularies, apart from its zod schema: a report answered from the result
 * cache needs these names but not the validator, whose library costs a tenth of a second to load.
 */
export const DIMENSIONS = ['S', 'C', 'D', 'B'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const LANGUAGES = ['typescript', 'tsx', 'javascript', 'python', 'rust', 'go'] as const;
export type Language = (typeof LANGUAGES)[number];
/** What stands before a path the model reads (see src/model/gates.ts): the report's gate kinds, and those a rubric's facts may ask for. */
export const GATE_KINDS = ['always', 'list', 'safe-list', 'bypass-switch', 'opt-in', 'condition', 'overwrite', 'switched-off', 'driven-agent'] as const;
export type GateKind = (typeof GATE_KINDS)[number];
