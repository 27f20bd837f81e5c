export { applyOverrides, reviewNotes } from './apply.js';
export { loadOverrides, parseOverrides } from './load.js';
export { overridesSchema, TEXT_KEYS, type Overrides, type TextKey } from './schema.js';
