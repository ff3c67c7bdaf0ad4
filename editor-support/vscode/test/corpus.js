// Tokenizes every workflow the project ships as correct — examples/*.cog
// and the ```cog blocks of docs/*.md — with the grammar, and fails when a
// token is marked invalid or a non-blank character is left unclassified
// (only source.cogflow or a meta.* scope): the grammar must know all the
// language the project itself writes. It also replays the language
// configuration's indentation rules (what Enter and "}" do) over the
// examples, which are in cogflow fmt's layout, and fails where the rules
// would indent a line differently from cogflow fmt. Run by `npm test`.
'use strict';

const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const root = path.resolve(__dirname, '..', '..', '..');
const grammarPath = path.resolve(__dirname, '..', 'syntaxes', 'cogflow.tmLanguage.json');
const config = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', 'language-configuration.json'), 'utf8'));

// indentFailures replays indentationRules over text in cogflow fmt's layout
// (two spaces a level) and returns the lines they would indent otherwise.
function indentFailures(name, text) {
  const increase = new RegExp(config.indentationRules.increaseIndentPattern);
  const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
  const out = [];
  let level = 0;
  text.split('\n').forEach((line, n) => {
    if (line.trim() === '') return;
    if (decrease.test(line)) level--;
    const indent = line.length - line.trimStart().length;
    if (indent !== 2 * level) out.push(`${name} line ${n + 1}: the indentation rules give ${2 * level} spaces, cogflow fmt ${indent}`);
    if (increase.test(line)) level++;
  });
  return out;
}

// corpus returns [name, text] for each example file and docs block.
function corpus() {
  const out = [];
  const examples = path.join(root, 'examples');
  for (const f of fs.readdirSync(examples).sort()) {
    if (f.endsWith('.cog')) out.push([path.join('examples', f), fs.readFileSync(path.join(examples, f), 'utf8')]);
  }
  const docs = path.join(root, 'docs');
  for (const f of fs.readdirSync(docs).sort()) {
    if (!f.endsWith('.md')) continue;
    const lines = fs.readFileSync(path.join(docs, f), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() !== '```cog') continue;
      const start = i + 1;
      let j = start;
      while (j < lines.length && lines[j].trim() !== '```') j++;
      out.push([`docs/${f}:${start + 1}`, lines.slice(start, j).join('\n')]);
      i = j;
    }
  }
  return out;
}

async function main() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === 'source.cogflow' ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  const grammar = await registry.loadGrammar('source.cogflow');
  const files = corpus();
  let failures = 0;
  let tokens = 0;
  let lineCount = 0;
  for (const [name, text] of files) {
    let stack = vsctm.INITIAL;
    text.split('\n').forEach((line, n) => {
      const r = grammar.tokenizeLine(line, stack);
      stack = r.ruleStack;
      lineCount++;
      for (const t of r.tokens) {
        tokens++;
        const s = line.slice(t.startIndex, t.endIndex);
        const inner = t.scopes[t.scopes.length - 1];
        const bad = t.scopes.find((x) => x.startsWith('invalid.'));
        const bare = s.trim() !== '' && (inner === 'source.cogflow' || inner.startsWith('meta.'));
        if (bad || bare) {
          failures++;
          console.error(`${name} line ${n + 1}, column ${t.startIndex + 1}: ${JSON.stringify(s)} is ${bad || 'unclassified'} (${t.scopes.join(' ')})`);
        }
      }
    });
  }
  let indented = 0;
  for (const [name, text] of files) {
    if (!name.startsWith('examples')) continue; // docs blocks need not be in fmt's layout
    indented++;
    for (const f of indentFailures(name, text)) {
      failures++;
      console.error(f);
    }
  }
  if (files.length < 20 || indented < 10) {
    console.error(`only ${files.length} files in the corpus: is the repository layout different?`);
    failures++;
  }
  console.log(`corpus: ${files.length} workflows, ${lineCount} lines, ${tokens} tokens, indentation of ${indented} examples replayed, ${failures} failures`);
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
