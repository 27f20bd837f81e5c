/** A rubric folder that cannot be used: the message names the file, the path inside it and what was expected. */
export class RubricError extends Error {
  override name = 'RubricError';
}
