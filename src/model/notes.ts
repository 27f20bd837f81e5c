import type { AgentModel } from './index.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What the agent model could not resolve, for the Limitations: said, never guessed. */
export function modelNotes(model: AgentModel): string[] {
  const out: string[] = [];
  const unresolved = model.tools.filter((t) => t.unresolved);
  if (unresolved.length) {
    const names = unresolved.slice(0, 5).map((t) => `${t.name} (${t.site.path}:${t.site.line})`).join(', ');
    out.push(`The agent model could not resolve what ${plural(unresolved.length, 'tool or code runner')} reach${unresolved.length === 1 ? 'es' : ''} or who calls ${unresolved.length === 1 ? 'it' : 'them'} (${names}${unresolved.length > 5 ? ', …' : ''}): ${unresolved.length === 1 ? 'it decides' : 'they decide'} no level.`);
  }
  const stranded = model.strandedAsks;
  if (stranded.length) {
    const places = stranded.slice(0, 5).map((s) => `${s.path}:${s.line}`).join(', ');
    out.push(`${stranded.length === 1 ? 'A step that waits for the user was' : `${plural(stranded.length, 'step')} that wait for the user were`} found in code that nothing calls by name (${places}${stranded.length > 5 ? ', …' : ''}): a graph node or a handler the code hands on, or code nothing runs. No tool path was seen to pass ${stranded.length === 1 ? 'it' : 'them'}, so where ${stranded.length === 1 ? 'it guards' : 'they guard'} a tool by such a route, the approval levels understate the harness: check ${stranded.length === 1 ? 'that place' : 'those places'} by hand.`);
  }
  if (model.ambiguousCalls > 0) out.push(`The call graph did not follow ${plural(model.ambiguousCalls, 'call')} whose name has too many definitions to tell which runs (method names shared by many types): a path through them is not seen.`);
  if (!model.tools.some((t) => !t.unresolved)) out.push('No tool offered to the model was recognised: levels that depend on tools (approval coverage, scoping, isolation of the exec path) rest on probes alone.');
  return out;
}
