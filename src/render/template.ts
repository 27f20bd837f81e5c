import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../paths.js';

const require = createRequire(import.meta.url);
const TEMPLATES = join(ROOT, 'templates');

/**
 * A template of `templates/`, compiled. Handlebars is loaded on first use, so a command answered
 * from the result cache in JSON never pays for it. noEscape: every value is escaped for markdown
 * (not HTML) before it reaches the template.
 */
export function template(name: string): HandlebarsTemplateDelegate {
  const Handlebars = require('handlebars') as typeof import('handlebars');
  return Handlebars.create().compile(readFileSync(join(TEMPLATES, name), 'utf8'), { noEscape: true, strict: true });
}
