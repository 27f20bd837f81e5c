import { describe, expect, it } from 'vitest';
import { argumentsAt } from '../../src/model/replies.js';

describe('the argument list of a call site', () => {
  it('takes the list after the called name when the name starts within 400 characters, else the first list', () => {
    const text = 'Manager(config).apply(edits, dry)';
    expect(argumentsAt(text, 0)).toBe('config');
    expect(argumentsAt(text, 0, 'apply')).toBe('edits, dry');
    // A longer name ending in the called one is not the call.
    expect(argumentsAt('reapply(a); apply(b)', 0, 'apply')).toBe('b');
    expect(argumentsAt('apply(b)', 0, 'apply')).toBe('b');
    // Past 400 characters, the name is another call: the call's own first list is taken.
    const far = `run(x${' '.repeat(500)}); apply(y)`;
    expect(argumentsAt(far, 0, 'apply')).toBe(`x${' '.repeat(500)}`);
    const near = `run(x${' '.repeat(150)}); apply(y)`;
    expect(argumentsAt(near, 0, 'apply')).toBe('y');
    // The bound is exact: a name whose preceding character is at 400 is the call (its list then
    // opens too far away to be read), at 401 it is not.
    const at = (n: number) => `run(x${' '.repeat(n - 5)};apply(y)`;
    expect(argumentsAt(at(400), 0, 'apply')).toBe('');
    expect(argumentsAt(at(401), 0, 'apply')).toBe(`x${' '.repeat(396)};apply(y)`);
    // A site inside a large file: only the stretch after it is searched, with the same answer.
    const big = `${'z = 1;\n'.repeat(20_000)}obj.send(msg);\n${'w = 2;\n'.repeat(20_000)}`;
    expect(argumentsAt(big, big.indexOf('obj.send'), 'send')).toBe('msg');
    expect(argumentsAt(big, big.indexOf('obj.send'), 'missing')).toBe('msg');
  });
});
