import { describe, expect, it } from 'vitest';
import { refusal } from '../helpers.js';

/**
 * Agents pinned to the OpenAI SDKs' older call shapes (`openai.createChatCompletion(…)` in Node
 * v3, `openai.ChatCompletion.create(…)` in Python v0), and LangChain's legacy call of the chat
 * model object itself (`self.llm(messages)`), and LangChain JS's `model.invoke(…)`, call a model all the same: the audit scores
 * them instead of refusing them as "no sign of an agent harness". (A chat CLI that only prints
 * the reply: nothing else in it marks it as an agent.)
 */
const node = (call: string): Record<string, string> => ({
  'package.json': '{ "name": "suggest", "version": "1.0.0", "bin": { "suggest": "dist/cli.js" } }\n',
  'src/cli.ts': `import { Configuration, OpenAIApi } from 'openai';

const openai = new OpenAIApi(new Configuration({ apiKey: process.env.OPENAI_API_KEY }));

export async function main(prompt: string) {
  const reply = await ${call}({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }] });
  console.log(reply.data.choices[0].message.content);
}

main(process.argv[2]);
`,
});

const python = (call: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "suggest"\nversion = "0.1.0"\n[project.scripts]\nsuggest = "suggest.cli:main"\n',
  'suggest/__init__.py': '',
  'suggest/cli.py': `import sys

import openai


def main():
    reply = ${call}(model="gpt-3.5-turbo", messages=[{"role": "user", "content": sys.argv[1]}])
    print(reply["choices"][0]["message"]["content"])
`,
});

/** LangChain's legacy chat model, called as an object: `self.llm(messages)`. */
const langchain = (held: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "critic"\nversion = "0.1.0"\ndependencies = ["langchain"]\n[project.scripts]\ncritic = "critic.agent:main"\n',
  'critic/__init__.py': '',
  'critic/agent.py': `from langchain.chat_models import ChatOpenAI
from langchain.schema import HumanMessage


class Critic:
    def __init__(self):
        self.${held} = ChatOpenAI(model_name="gpt-4", temperature=0)

    def check(self, task: str) -> str:
        return self.${held}([HumanMessage(content=task)]).content


def main():
    import sys

    print(Critic().check(sys.argv[1]))
`,
});

/** LangChain JS: a chat model object held under a name for one, run with `.invoke` (or a retriever, which is none). */
const langchainJs = (held: string): Record<string, string> => ({
  'package.json': '{ "name": "classify", "version": "1.0.0", "bin": { "classify": "dist/cli.js" }, "dependencies": { "@langchain/anthropic": "^0.3.0" } }\n',
  'src/cli.ts': `import { ChatAnthropic } from '@langchain/anthropic';

export async function classify(text: string): Promise<string> {
  const ${held} = new ChatAnthropic({ model: 'claude-3-5-haiku-latest', temperature: 0 });
  const response = await ${held}.invoke([['user', \`Classify: \${text}\`]]);
  return String(response.content);
}

classify(process.argv[2] ?? '').then(console.log);
`,
});

const rust = (call: string): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "suggest"\nversion = "0.1.0"\nedition = "2021"\n',
  'src/main.rs': `use async_openai::{types::CreateChatCompletionRequestArgs, Client};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let prompt = std::env::args().nth(1).unwrap_or_default();
    let client = Client::new();
    let request = CreateChatCompletionRequestArgs::default().model("gpt-4o-mini").messages(vec![prompt.into()]).build()?;
    let reply = ${call}(request).await?;
    println!("{:?}", reply.choices[0].message.content);
    Ok(())
}
`,
});


describe('the OpenAI SDKs\' older call shapes are model calls', () => {
  it('Node v3 createChatCompletion: scored', async () => {
    expect(await refusal('legacy-node', node('openai.createChatCompletion'))).toBeNull();
  });

  it('Python v0 ChatCompletion.create: scored', async () => {
    expect(await refusal('legacy-python', python('openai.ChatCompletion.create'))).toBeNull();
  });

  it('Rust async-openai client.chat().create: scored', async () => {
    expect(await refusal('rust-chat-create', rust('client.chat().create'))).toBeNull();
  });

  it('LangChain\'s legacy call of the chat model object (`self.llm(messages)`, `self.qa_llm(…)`): scored', async () => {
    expect(await refusal('langchain-llm', langchain('llm'))).toBeNull();
    expect(await refusal('langchain-qa-llm', langchain('qa_llm'))).toBeNull();
  });

  it('LangChain JS\'s `.invoke` on a chat model held as `model` or `chatModel`: scored; on a `retriever`: refused', async () => {
    expect(await refusal('langchain-js-model', langchainJs('model'))).toBeNull();
    expect(await refusal('langchain-js-chat-model', langchainJs('chatModel'))).toBeNull();
    expect(await refusal('langchain-js-retriever', langchainJs('retriever'))).toMatch(/no sign of an agent harness/);
  });

  it('the same call of an object held under another name is no model call: refused', async () => {
    expect(await refusal('langchain-helper', langchain('helper'))).toMatch(/no sign of an agent harness/);
  });

  it('a call of some other create method is no model call: refused', async () => {
    expect(await refusal('legacy-other', python('openai.Image.create'))).toMatch(/no sign of an agent harness/);
  });
});
