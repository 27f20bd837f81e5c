import { z } from 'zod';
import { GATE_KINDS } from '../rubric/names.js';

const level = z.number().int().min(0).max(4);

export const evidenceSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('lines'),
    probe: z.string(),
    path: z.string(),
    startLine: z.number().int().min(1),
    endLine: z.number().int().min(1),
    /** The matched text; verification re-reads the cited lines and looks for it. */
    text: z.string(),
    /** Permalink at the pinned commit for GitHub targets, else a repo-relative path#La-Lb. */
    link: z.string(),
    verified: z.boolean(),
    /** What the finding shows, from the probe. */
    shows: z.string(),
  }),
  z.object({
    kind: z.literal('search'),
    probe: z.string(),
    /** A command anyone can re-run to see the same empty result. */
    command: z.string(),
    /** Folders or files searched; ['.'] for all product code. */
    scope: z.array(z.string()),
    filesSearched: z.number().int(),
    /** The top folders of the files searched, when the scope is all product code (what a short search names). */
    folders: z.array(z.string()).optional(),
    /** Distinctive terms every match would contain, for the short form `rg -n 'a|b'` (the full search is `command`). */
    terms: z.string().optional(),
    hits: z.literal(0),
    /** Matches left out because they sit in definitions no product code uses (none: absent). */
    unused: z.number().int().positive().optional(),
    meaning: z.string(),
    verified: z.boolean(),
  }),
]);
export type Evidence = z.infer<typeof evidenceSchema>;

export const dimensionSchema = z.object({
  level,
  means: z.string(),
  /** "To reach the next level"; null at L4. */
  next: z.string().nullable(),
  /** 'probes' when probe evidence decided the level; 'default' when nothing relevant was found or searched. */
  decidedBy: z.enum(['probes', 'default']),
  evidence: z.array(evidenceSchema),
  /** Who set the level: the tool's rules, or a reviewer's overrides file. Absent in reports from before reviews (= automated). */
  source: z.enum(['automated', 'reviewed']).optional(),
  /** Present when reviewed: the reviewer's reason and evidence, and the level the tool had given. */
  reviewer: z.object({ reason: z.string(), evidence: z.array(z.string()), automatedLevel: level }).optional(),
});

export const criterionResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  levels: z.object({ S: level, C: level, D: level, B: level }),
  dimensions: z.object({ S: dimensionSchema, C: dimensionSchema, D: dimensionSchema, B: dimensionSchema }),
  /** (3S+3C+2D+2B)/40 as a number, and its exact numerator over `denominator`. */
  raw: z.number(),
  rawNumerator: z.number().int(),
  denominator: z.number().int(),
  cap: z.number().nullable(),
  capReason: z.string().nullable(),
  capEvidence: z.array(evidenceSchema),
  score: z.number(),
  scoreNumerator: z.number().int(),
  confidence: z.enum(['High', 'Medium', 'Low']),
  /** Probe titles found and not found for this criterion, for the criterion's summary. */
  present: z.array(z.string()),
  missing: z.array(z.string()),
  evidence: z.array(evidenceSchema),
});
export type CriterionResult = z.infer<typeof criterionResultSchema>;

/** A reviewer's correction of a surface value or a Rule-of-Two leg: why, and what the tool had said. */
const reviewOf = <T extends z.ZodType>(automated: T) => z.object({ reason: z.string(), evidence: z.array(z.string()), automated }).optional();

/** A place the agent model cites: exact lines, a link, and whether re-reading them found the construct again. */
const siteSchema = z.object({ path: z.string(), line: z.number().int().min(1), endLine: z.number().int().min(1), text: z.string(), link: z.string(), verified: z.boolean() });

const gateSchema = z.object({
  /** always · list (a name list decides) · safe-list (a "safe command" check skips it) · bypass-switch · opt-in · condition · overwrite · switched-off (a driven coding agent's ask the code turns off) · driven-agent (a driven coding agent's approvals, left as they ship and run headless: they ask no one); see src/model/gates.ts. */
  kind: z.enum(GATE_KINDS),
  site: siteSchema,
  guard: z.string().optional(),
  showsInput: z.boolean(),
  strict: z.boolean().optional(),
  /** For opt-in: where the code sets the switch that turns the ask on to off. */
  switchOff: siteSchema.optional(),
  /** For list: where the name list (its shipped default) is written. */
  listAt: siteSchema.optional(),
});

export const agentToolSchema = z.object({
  name: z.string(),
  /** How the tool is offered (model.yaml `tools` id), or `code runner` / `extension call`. */
  construct: z.string(),
  site: siteSchema,
  handler: z.object({ path: z.string(), line: z.number().int(), name: z.string(), link: z.string() }).nullable(),
  /** Sink kinds it can reach: exec, own-exec (a command the code chose), spawn, write, own-write (a path the code chose), net, ext, remote, browse, read. */
  reaches: z.array(z.string()),
  /** ungated (some consequential path runs with nobody asked and no sandbox) · isolated · gated · no-reach · unresolved. */
  status: z.enum(['ungated', 'gated', 'isolated', 'no-reach', 'unresolved']),
  /** Every consequential path has an ask that holds in the defaults; every command path runs in a sandbox. */
  gated: z.boolean(),
  isolated: z.boolean(),
  paths: z.array(
    z.object({
      kind: z.string(),
      sink: siteSchema,
      gated: z.boolean(),
      isolated: z.boolean(),
      gate: gateSchema.nullable(),
      /** A branch that refuses some values of the tool's input before this step (`if cmd not in ALLOWED: return "error"`). */
      check: siteSchema.optional(),
      via: z.array(z.string()),
    }),
  ),
  /** Paths beyond the ones listed (the list is bounded). */
  morePaths: z.number().int(),
});

export const agentSchema = z.object({
  tools: z.array(agentToolSchema),
  /** Every consequential place the model reaches, with the tools that reach it (bounded). */
  sinks: z.array(z.object({ kind: z.string(), site: siteSchema, reachedBy: z.array(z.string()) })),
  /** Calls not followed because their name has too many definitions. */
  ambiguousCalls: z.number().int(),
  /** Where the model's tool calls are dispatched, with the call there that records each (null: none) (bounded). */
  dispatches: z.array(z.object({ site: siteSchema, record: siteSchema.nullable() })).optional(),
});
export type AgentReport = z.infer<typeof agentSchema>;

const legSchema = z.object({ holds: z.boolean(), label: z.string(), evidence: z.array(evidenceSchema), reviewer: reviewOf(z.boolean()) });

export const reportSchema = z.object({
  tool: z.object({ name: z.string(), version: z.string() }),
  rubric: z.object({ id: z.string(), version: z.string(), hash: z.string() }),
  target: z.object({
    repo: z.string(),
    name: z.string(),
    webUrl: z.string().nullable(),
    commit: z.string().nullable(),
    kind: z.enum(['git', 'folder']),
    dirtyFiles: z.number().int(),
    whatItIs: z.string(),
    category: z.string(),
    scoredConfiguration: z.string(),
    /** The product surfaces the score covers (desktop app, API server, bot…), when stated. */
    surfacesScored: z.array(z.string()).optional(),
  }),
  criteria: z.array(criterionResultSchema),
  total: z.number(),
  totalNumerator: z.number().int(),
  band: z.string(),
  surface: z.array(
    z.object({ id: z.string(), label: z.string(), value: z.enum(['yes', 'no', 'opt-in']), evidence: z.array(evidenceSchema), reviewer: reviewOf(z.enum(['yes', 'no', 'opt-in'])) }),
  ),
  ruleOfTwo: z.object({ A: legSchema, B: legSchema, C: legSchema, sameDefaultSession: z.boolean() }),
  criticalGaps: z.array(z.object({ criterion: z.string(), reason: z.string() })),
  /** One item per fix (a playbook step): the one-level moves it makes, ranked by METHOD §9 by its best move, and their combined gain. */
  improvements: z.array(
    z.object({
      /** The first (best-ranked) move of the fix. */
      criterion: z.string(),
      dimension: z.enum(['S', 'C', 'D', 'B']),
      from: level,
      to: level,
      /** The combined gain of every move of the fix, before caps. */
      gain: z.number(),
      action: z.string(),
      playbook: z.string().nullable(),
      swallowedByCap: z.boolean(),
      moves: z.array(z.object({ criterion: z.string(), dimension: z.enum(['S', 'C', 'D', 'B']), from: level, to: level, gain: z.number(), swallowedByCap: z.boolean() })),
    }),
  ),
  inventory: z.object({
    entries: z.number().int(),
    filesScanned: z.number().int(),
    bytesScanned: z.number().int(),
    languages: z.record(z.string(), z.number().int()),
    uncovered: z.record(z.string(), z.number().int()),
    excluded: z.record(z.string(), z.object({ count: z.number().int(), examples: z.array(z.string()) })),
  }),
  reaudit: z.array(z.string()),
  limitations: z.array(z.string()),
  /** The agent model: tools offered to the model, what each reaches and what guards it (absent when the rubric has no model). */
  agent: agentSchema.optional(),
});
export type Report = z.infer<typeof reportSchema>;

export function reportJsonSchema(): unknown {
  return z.toJSONSchema(reportSchema, { target: 'draft-2020-12' });
}
