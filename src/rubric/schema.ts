import { z } from 'zod';
import { linearRegexError } from '../facts/re2.js';

import { DIMENSIONS, GATE_KINDS, LANGUAGES, type Dimension, type Language } from './names.js';

export { DIMENSIONS, LANGUAGES, type Dimension, type Language };

const probeId = z.string().regex(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/, 'a probe id like "exec.env-cleared"');

/**
 * A rule over probe outcomes. A bare string is "this probe found something"; the object forms
 * combine. `absent` is stronger than `not`: the probe must have searched a non-empty scope.
 */
export type Rule =
  | string
  | { all: Rule[] }
  | { any: Rule[] }
  | { not: Rule }
  | { absent: string }
  | { cond: string };
export const ruleSchema: z.ZodType<Rule> = z.lazy(() =>
  z.union([
    probeId,
    z.strictObject({ all: z.array(ruleSchema).min(1) }),
    z.strictObject({ any: z.array(ruleSchema).min(1) }),
    z.strictObject({ not: ruleSchema }),
    z.strictObject({ absent: probeId }),
    z.strictObject({ cond: z.string().min(1) }),
  ]),
);

const fortieths = z
  .number()
  .min(0)
  .max(1)
  .refine((v) => Number.isInteger(Math.round(v * 40 * 1e9) / 1e9), 'a multiple of 1/40 (0.25, 0.2, …)');

export const rubricFileSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  version: z.string().regex(/^\d+\.\d+\.\d+$/, 'a semantic version like 1.0.0'),
  title: z.string(),
  /** Integer weights per dimension; the denominator is 4·Σweights (40 for 3,3,2,2). */
  weights: z.strictObject({ S: z.number().int().positive(), C: z.number().int().positive(), D: z.number().int().positive(), B: z.number().int().positive() }),
  bands: z.array(z.strictObject({ name: z.string(), min: z.number().min(0) })).min(1),
  criteria: z.array(z.string().regex(/^C\d+$/)).min(1),
  /** Named rules that criteria, caps and the surface share (`{cond: name}`). */
  conditions: z.record(z.string(), ruleSchema).default({}),
  caps: z.array(
    z.strictObject({
      id: z.string(),
      criterion: z.string().regex(/^C\d+$/),
      value: fortieths,
      when: ruleSchema,
      explain: z.string(),
      evidence: z.array(probeId).default([]),
    }),
  ),
});
export type RubricFile = z.infer<typeof rubricFileSchema>;

const insteadSchema = z.strictObject({ when: ruleSchema, means: z.string() });

const levelSchema = z.strictObject({
  /** What the level means (the ladder text of METHOD §4). */
  means: z.string(),
  /** When the evidence supports this level. Absent on a level probes cannot show. */
  when: ruleSchema.optional(),
  /** Shown as "To reach the next level": what is missing, stated as a fact. */
  gap: z.string().optional(),
  /** The improvement that reaches the next level, as an imperative. */
  action: z.string().optional(),
  /** Playbook step that says how, e.g. "P3.2" (playbook 3 step 2) or "P1". */
  playbook: z.string().regex(/^P\d+(?:\.\d+)?$/).optional(),
  /**
   * L0 only, beside its `when`: what the scorecard says when L0 is the level because nothing higher
   * holds, while L0's own finding was not made either (no approval step at all rather than one
   * switched off). The level is the same (METHOD §4: an absent mechanism is L0); the words must not
   * claim what the code was not seen to do.
   */
  otherwise: z.strictObject({ means: z.string(), gap: z.string() }).optional(),
  /**
   * Beside a `when` with an alternative the ladder's words do not describe (the tools reach
   * nothing, so nothing needs the sandbox the words name): while this rule holds, the scorecard
   * says `means` for the level instead. The level is the same; the words must be true of the code.
   * Several alternatives may each have their words: a list, the first whose rule holds speaks.
   */
  instead: z.union([insteadSchema, z.array(insteadSchema).min(1)]).optional(),
});
export type LevelSpec = z.infer<typeof levelSchema>;

const ladderSchema = z.strictObject({ L0: levelSchema, L1: levelSchema, L2: levelSchema, L3: levelSchema, L4: levelSchema });

export const criterionSchema = z.strictObject({
  id: z.string().regex(/^C\d+$/),
  title: z.string(),
  question: z.string(),
  S: ladderSchema,
  C: ladderSchema,
  D: ladderSchema,
  B: ladderSchema,
});
export type Criterion = z.infer<typeof criterionSchema>;

const snippet = z.strictObject({
  lang: z.enum([...LANGUAGES, 'json', 'yaml', 'toml', 'text']),
  /** File name the snippet is tested as (config and text probes select files by name). */
  file: z.string().optional(),
  code: z.string(),
  /** For a match: the text the probe must match (the first line of the matched node, trimmed). */
  matched: z.string().optional(),
});

const astGrepRule = z.record(z.string(), z.unknown());

/** A pattern run over the target's text: it must be one RE2 can run (linear time: no lookaround, no backreferences). */
const linearPattern = z.string().superRefine((s, ctx) => {
  const why = linearRegexError(s);
  if (why) ctx.addIssue({ code: 'custom', message: `a pattern RE2 can run (no lookaround or backreferences): ${why}` });
});

/** The `code` engine: regexes over roles of syntax-tree tokens (see src/facts/codeRules.ts). */
const codeShorthand = z
  .strictObject({ identifiers: z.string().optional(), strings: z.string().optional(), calls: z.string().optional(), keys: z.string().optional() })
  .refine((c) => Object.values(c).some((v) => v !== undefined), 'at least one of identifiers, strings, calls, keys');

export const probeSchema = z
  .strictObject({
    id: probeId,
    title: z.string(),
    /** What a finding shows, in a phrase that reads after "found:". */
    found: z.string().optional(),
    /** What an empty search means, shown in negative evidence. */
    absent: z.string(),
    criteria: z.array(z.string().regex(/^C\d+$/)).min(1),
    engine: z.enum(['text', 'ast-grep', 'code', 'config', 'ts', 'model']),
    /** Which files it reads: languages (by extension) and/or path globs. */
    languages: z.array(z.enum(LANGUAGES)).default([]),
    files: z.array(z.string()).default([]),
    /** Only search the folders (or files) where another probe found something. */
    within: z.strictObject({ probe: probeId, scope: z.enum(['dir', 'file']).default('dir') }).optional(),
    // text engine
    pattern: linearPattern.optional(),
    ignoreCase: z.boolean().default(false),
    // ast-grep engine: one rule object per language (ast-grep's rule syntax)
    rules: z.record(z.string(), astGrepRule).optional(),
    // code engine: token roles, expanded to one ast-grep rule per language
    code: codeShorthand.optional(),
    // config engine
    select: z.string().optional(),
    matches: linearPattern.optional(),
    // ts engine
    calls: z.array(z.string()).optional(),
    withoutOption: z.array(z.string()).optional(),
    /** ts engine: option names one of which the call must pass to count (a model call given `tools` can loop; one without cannot). */
    withOption: z.array(z.string()).optional(),
    tests: z.strictObject({ match: z.array(snippet).min(1), noMatch: z.array(snippet).min(1) }),
  })
  .superRefine((p, ctx) => {
    const need = (key: keyof typeof p, why: string) => {
      if (p[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `required for engine ${p.engine}: ${why}` });
    };
    if (p.engine === 'text') need('pattern', 'a regular expression');
    // Code is matched on its syntax tree, so a comment or a message can never satisfy a probe.
    if ((p.engine === 'text' || p.engine === 'config') && p.languages.length)
      ctx.addIssue({ code: 'custom', path: ['languages'], message: `engine ${p.engine} reads config files only: match code with ast-grep or code rules` });
    if (p.engine === 'ast-grep') need('rules', 'one ast-grep rule per language');
    if (p.engine === 'code') need('code', 'token roles (identifiers, strings, calls, keys) with their regexes');
    if (p.engine === 'model') ctx.addIssue({ code: 'custom', path: ['engine'], message: 'agent-model facts are declared in model.yaml, not as probe files' });
    if (p.engine === 'config') {
      need('select', 'a dotted key path with * wildcards');
      if (p.files.length === 0) ctx.addIssue({ code: 'custom', path: ['files'], message: 'config probes name the files they read' });
    }
    if (p.engine === 'ts') {
      need('calls', 'callee names');
      need('withoutOption', 'option names whose absence is the finding');
    }
    if (p.languages.length === 0 && p.files.length === 0)
      ctx.addIssue({ code: 'custom', path: ['languages'], message: 'a probe reads some languages or some files' });
  });
/** What an agent-model fact reads from the model: tool paths, the model's loops, its dispatch sites, or every sink. */
export type ModelReads = 'tool paths' | 'loops' | 'dispatches' | 'sinks';
/** A rubric probe, or an agent-model fact seen as one (engine `model`, never declared as a probe file). */
export type Probe = z.infer<typeof probeSchema> & { reads?: ModelReads };

const surfaceProperty = z.strictObject({
  id: z.string(),
  label: z.string(),
  yes: ruleSchema,
  optIn: ruleSchema.optional(),
  evidence: z.array(probeId).default([]),
});

const leg = z.strictObject({ label: z.string(), when: ruleSchema, evidence: z.array(probeId).min(1) });

export const surfaceSchema = z.strictObject({
  properties: z.array(surfaceProperty).min(1),
  ruleOfTwo: z.strictObject({ A: leg, B: leg, C: leg }),
});
export type Surface = z.infer<typeof surfaceSchema>;

export const playbooksSchema = z.array(
  z.strictObject({ id: z.string().regex(/^P\d+$/), title: z.string(), steps: z.array(z.string()).min(1) }),
);
export type Playbook = z.infer<typeof playbooksSchema>[number];

const regex = linearPattern;

/** checklist.yaml (optional): the release self-audit, each item shown by a rule or checked by a person. */
export const checklistSchema = z
  .array(
    z
      .strictObject({
        id: z.string().regex(/^C\d+\.[a-z0-9]+(?:-[a-z0-9]+)*$/, 'an item id like "C8.keyring"'),
        criterion: z.string().regex(/^C\d+$/),
        text: z.string().min(1),
        /** When probes can show the item holds: the same rule language as criteria levels. */
        holds: ruleSchema.optional(),
        /** When only a person can check it: how. */
        manual: z.string().min(1).optional(),
      })
      .refine((i) => (i.holds === undefined) !== (i.manual === undefined), 'either a `holds` rule or a `manual` instruction, not both'),
  )
  .min(1);
export type ChecklistItem = z.infer<typeof checklistSchema>[number];

/** A control a claim names: one probe, or alternatives of which one finding shows it (`{any: [...]}`). */
const claimProbe = z.union([probeId, z.strictObject({ any: z.array(probeId).min(2) })]);
export type ClaimProbe = z.infer<typeof claimProbe>;

/** claims.yaml (optional): where a target's security documents are and how their sentences map to probes. */
export const claimsSchema = z.strictObject({
  /** Globs (case-insensitive) naming the target's own security documents. */
  documents: z.array(z.string().min(1)).min(1),
  /** A heading matching this marks a section of disclaimers (what is NOT protected): not read as claims. */
  disclaimers: regex,
  /** A sentence no matcher maps is still a candidate claim (listed as unmapped) when one of these matches. */
  candidates: z.array(z.strictObject({ id: z.string().regex(/^[a-z0-9-]+$/), pattern: regex })).min(1),
  /** A sentence matching this says a control holds always or everywhere ("never … without …", "only …", "every …"): matchers' `bypassedBy` apply to it. */
  absolute: regex.optional(),
  /** Spans the absolute pattern may match that are setting values, not quantifiers (`--network none`): such a match does not count. */
  absoluteExcept: regex.optional(),
  /**
   * A claim sentence matching `pattern` (case-insensitive) holds when every listed probe (or one of
   * an `any` group) found something, and no `contradictedBy` probe, nor for an absolute sentence a
   * `bypassedBy` probe, found anything.
   */
  matchers: z
    .array(
      z
        .strictObject({
          id: z.string().regex(/^[a-z0-9-]+$/),
          pattern: regex,
          probes: z.array(claimProbe).default([]),
          /** A finding shows what the claim denies (a default it says is off, a secret it says is never logged). */
          contradictedBy: z.array(probeId).default([]),
          /** A finding is a path around the control: it contradicts an absolute sentence only. */
          bypassedBy: z.array(probeId).default([]),
        })
        .refine((m) => m.probes.length + m.contradictedBy.length > 0, 'probes that show the control, or contradictedBy probes whose finding shows the claim is false'),
    )
    .min(1),
});
export type ClaimsSpec = z.infer<typeof claimsSchema>;

const perLanguageRules = z.partialRecord(z.enum(LANGUAGES), astGrepRule);
const extractor = z.union([z.enum(['def', 'args', 'class', 'literal', 'branch', 'binding', 'pair', 'ref']), z.strictObject({ key: z.string() }), z.strictObject({ method: z.string() })]);

/** model.yaml: the constructs the agent model is built from, and the facts rules read (src/model/). */
export const modelSchema = z.strictObject({
  sinks: z.record(z.string().regex(/^[a-z]+$/), z.strictObject({ title: z.string(), rules: perLanguageRules, aliases: perLanguageRules.optional() })),
  asks: z.strictObject({ title: z.string(), rules: perLanguageRules }),
  /** A branch that refuses what fails a content test (`if cmd in BLOCKED: raise …`): on a tool's path, a check of its argument when the test reads the input. */
  checks: z.strictObject({ title: z.string(), rules: perLanguageRules }).optional(),
  tools: z.array(z.strictObject({ id: z.string().regex(/^[a-z0-9-]+$/), rules: perLanguageRules, name: extractor, handler: extractor, needsReach: z.boolean().default(false), alone: z.boolean().default(false), needsDefinition: z.boolean().default(false) })).min(1),
  /** Probes whose findings mark code that runs its commands inside a sandbox. */
  isolation: z.array(probeId).default([]),
  /** A probe whose findings are code runners: a shell or interpreter started with code the model wrote. */
  runners: probeId.optional(),
  /** A probe whose findings are unconditional loops: the model's `loop` facts keep those whose body reaches a model call. */
  loops: probeId.optional(),
  /** A probe whose findings are loops that bound what runs inside them: an unconditional loop inside one retries a pass of it (a call retried once the context is compacted), no loop of its own. */
  boundingLoops: probeId.optional(),
  /** Sink kinds whose every site is a path of its own (extension calls dispatched at run time). */
  sinkRunners: z.array(z.string()).default([]),
  /**
   * The name of a property or keyword in a tool's definition with which the tool declares that the
   * framework must ask the user before it runs (`needsApproval: true`): every path of the tool is gated there.
   */
  declaredApproval: linearPattern.optional(),
  /**
   * The same for a harness's own key (`approval: (args, mode) => mode === 'normal'`): it counts only
   * where the product code reads that key off a tool (`target.approval`, `entry["approval"]`), since
   * no framework does.
   */
  declaredApprovalRead: z.array(z.string().regex(/^[A-Za-z_$][\w$]*$/)).default([]),
  /**
   * Callees that record an event where a person can read it later (a log call at a level shown by
   * default, a print, a store's insert): one in the unit that dispatches the model's tool calls
   * records every call.
   */
  records: linearPattern.optional(),
  /**
   * Callees a tool's path is not followed into (matched against the called name's last part):
   * logging and telemetry helpers, whose files and requests are the harness's records of the
   * action, not the action.
   */
  unfollowed: linearPattern.optional(),
  /**
   * Names of a tool's input that carry a command or code (`code`, `command`, `script`; case aside): a tool
   * handed one runs it somewhere, whether or not the call that runs it can be followed.
   */
  commandInput: linearPattern.optional(),
  /**
   * What switches a driven coding agent's own approvals off (`bypassPermissions`,
   * `--dangerously-skip-permissions`; case aside): a code runner in a unit that says so runs the
   * model's commands unasked, even where the calls that reach it cannot be followed; unless the
   * switch is set only under a condition that `unless` matches (a switch of the harness's own).
   */
  unattended: z.strictObject({ switches: linearPattern, unless: linearPattern }).optional(),
  /**
   * A code runner that starts a coding agent headless with its approvals as they ship (no
   * `unattended` switch in its unit): the call (`calls`, matched against the runner's text: its
   * SDK's entry) or a program named in the unit before it (`programs`: the CLI). Its approvals ask
   * no one: the path's gate, which does not hold (the tools the code grants it run unasked).
   */
  drivenAgent: z.strictObject({ calls: linearPattern, programs: linearPattern }).optional(),
  facts: z
    .array(
      z.strictObject({
        id: probeId,
        title: z.string(),
        found: z.string().optional(),
        absent: z.string(),
        criteria: z.array(z.string().regex(/^C\d+$/)).min(1),
        /** Which tool paths make the fact found: any offered tool, or paths reaching a sink kind, gated or not, isolated or not. */
        paths: z.strictObject({
          tools: z.boolean().optional(),
          /** With `tools`: only tools whose input has a name `commandInput` matches. */
          commandInput: z.boolean().optional(),
          /** Every sink of this kind in the code, whether a tool reaches it or not (no other key applies). */
          sink: z.string().optional(),
          /**
           * Every loop whose body calls the model, directly or through the repository's calls (no other
           * key applies): of the `loops` probe (true), or of the probe named.
           */
          loop: z.union([z.boolean(), probeId]).optional(),
          /** A sink kind, `consequential` for any that changes something or sends data (the default), or `any`, reads too. */
          reach: z.string().optional(),
          gated: z.boolean().optional(),
          /** A person is asked before it acts for at least some inputs: its gate holds, or a "safe" check lets some commands past an ask that stands for the rest. */
          asked: z.boolean().optional(),
          isolated: z.boolean().optional(),
          showsInput: z.boolean().optional(),
          /** The tool's input passes a check that refuses some values before it reaches the sink (`checks`). */
          checked: z.boolean().optional(),
          /** With `reach: remote`: a database statement the tool's own input reaches (the model writes the query). */
          statement: z.boolean().optional(),
          /** The units that dispatch the model's tool calls: those that record each call (`records`), or not (no other key applies). */
          recorded: z.boolean().optional(),
          /** The path's ask is of this kind (see src/model/gates.ts). */
          gate: z.enum(GATE_KINDS).optional(),
          /** Found only where paths of at least this many tools match: a control most tools have, not one. */
          minTools: z.number().int().min(2).optional(),
        }),
      }),
    )
    .min(1),
});
export type ModelSpec = z.infer<typeof modelSchema>;
export type ModelFact = ModelSpec['facts'][number];

export interface Rubric {
  dir: string;
  file: RubricFile;
  criteria: Criterion[];
  probes: Probe[];
  surface: Surface;
  playbooks: Playbook[];
  /** model.yaml, when the rubric has one: the agent model's constructs and the facts its rules read. */
  model?: ModelSpec;
  /** checklist.yaml and claims.yaml, when the rubric has them (used by `audit checklist`). */
  checklist?: ChecklistItem[];
  claims?: ClaimsSpec;
  /** sha256 over every rubric file's bytes, in path order: pins what the report was scored with. */
  hash: string;
}
