import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A game bot's commands, listed as objects with a name, a description, parameters and a `perform`
 * function. Two ways to run commands on the host are off in the shipped settings (`speak: false`,
 * `allow_insecure_coding: false`): text-to-speech behind `if (settings.speak)`, and the code
 * command after an early exit while `allow_insecure_coding` is off. The launcher turns the latter
 * on from the environment (`settings.allow_insecure_coding = true` under `if
 * (process.env.INSECURE_CODING)`), which is not the default. With the settings on, both run.
 */
const files = (on: string): Record<string, string> => ({
  'package.json': '{ "name": "gamebot", "version": "1.0.0", "type": "module", "main": "main.js", "dependencies": { "openai": "^4.0.0" } }\n',
  'settings.js': `export default {
    "speak": ${on},
    "allow_insecure_coding": ${on},
};
`,
  'main.js': `import settings from './settings.js';
import { Agent } from './src/agent.js';

if (process.env.INSECURE_CODING) {
    settings.allow_insecure_coding = true;
}
new Agent().start(process.argv[2]);
`,
  'src/speak.js': `import { exec } from 'child_process';

export function say(text) {
    exec(\`espeak "\${text}"\`, () => {});
}
`,
  'src/commands.js': `import { exec } from 'child_process';
import settings from '../settings.js';
import { say } from './speak.js';

export const commandsList = [
    {
        name: '!chat',
        description: 'Say something to the player.',
        params: { 'message': { type: 'string', description: 'What to say.' } },
        perform: async function (agent, message) {
            if (settings.speak) {
                say(message);
            }
            return message;
        }
    },
    {
        name: '!runCode',
        description: 'Write and run code for a new behaviour.',
        params: { 'code': { type: 'string', description: 'The code to run.' } },
        perform: async function (agent, code) {
            if (!settings.allow_insecure_coding) {
                return 'Code writing is disabled in settings.';
            }
            exec(\`node -e \${JSON.stringify(code)}\`, () => {});
            return 'ran';
        }
    },
];
`,
  'src/agent.js': `import OpenAI from 'openai';
import { commandsList } from './commands.js';

export class Agent {
    async start(goal) {
        const client = new OpenAI();
        const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: goal }] });
        const [name, arg] = reply.choices[0].message.content.split(' ');
        const command = commandsList.find((c) => c.name === name);
        if (command) await command.perform(this, arg);
    }
}
`,
});

const run = async (name: string, on: string) => {
  const report = await audit(writeTree(name, files(on)), { rubricDir: RUBRIC, factsCache: false });
  return Object.fromEntries(report.agent!.tools.map((t) => [t.name, t.reaches]));
};

describe('commands listed with a perform function, and host commands the shipped settings leave off', () => {
  it('are tools; what only a setting that is off by default opens is not reached', async () => {
    const reaches = await run('gamebot', 'false');
    expect(reaches['!chat']).toEqual([]);
    expect(reaches['!runCode']).toEqual([]);
  });

  it('with the settings on, both reach a command', async () => {
    const reaches = await run('gamebot-on', 'true');
    expect(reaches['!chat']).toContain('exec');
    expect(reaches['!runCode']).toContain('exec');
  });
});
