import { describe, expect, it } from 'vitest';
import { importBindings } from '../../src/facts/imports.js';

/** The names an import binds: [local, module], with the name in the module third where the import renames it. */
describe('import bindings', () => {
  it('Python: a renamed name carries its own; a plain one and a module alias do not', () => {
    expect(importBindings('from client import send as client_send, fetch', 'python')).toEqual([
      ['client_send', 'client', 'send'],
      ['fetch', 'client'],
    ]);
    expect(importBindings('from .tools import (\n    run as run_tool,\n)', 'python')).toEqual([['run_tool', '.tools', 'run']]);
    expect(importBindings('import numpy as np', 'python')).toEqual([['np', 'numpy']]);
  });

  it('Python: a comment after a name in a parenthesised list hides none of the names after it', () => {
    expect(importBindings('from .tools import (\n    run,  # the shell tool\n    fetch as get,\n)', 'python')).toEqual([
      ['run', '.tools'],
      ['get', '.tools', 'fetch'],
    ]);
  });

  it('Go: a one-line import binds the package name, as a grouped one does; an alias replaces it', () => {
    expect(importBindings('import "os/exec"', 'go')).toEqual([['exec', 'os/exec']]);
    expect(importBindings('import (\n\t"os/exec"\n\tsh "github.com/acme/shell/v2"\n)', 'go')).toEqual([
      ['exec', 'os/exec'],
      ['sh', 'github.com/acme/shell/v2'],
    ]);
    expect(importBindings('import run "os/exec"', 'go')).toEqual([['run', 'os/exec']]);
    expect(importBindings('import "github.com/acme/shell/v2"', 'go')).toEqual([['shell', 'github.com/acme/shell/v2']]);
  });

  it('TypeScript: a renamed named import carries its own; default and namespace imports do not', () => {
    expect(importBindings("import Client, { send as clientSend, type Opts } from './client.js';", 'typescript')).toEqual([
      ['Client', './client.js'],
      ['clientSend', './client.js', 'send'],
      ['Opts', './client.js'],
    ]);
    expect(importBindings("import * as api from './api';", 'typescript')).toEqual([['api', './api']]);
  });

  it('Rust: `use … as …`, alone or in a group', () => {
    expect(importBindings('use crate::runner::run_line as exec_line;', 'rust')).toEqual([['exec_line', 'crate::runner', 'run_line']]);
    expect(importBindings('use crate::runner::{run_line as exec_line, spawn};', 'rust')).toEqual([
      ['exec_line', 'crate::runner', 'run_line'],
      ['spawn', 'crate::runner'],
    ]);
  });
});
