// Starts the language server the way the extension does — the binary with
// the default cogflow.server.args of package.json — and talks to it over
// stdio with vscode-jsonrpc, the library under vscode-languageclient: the
// server must answer initialize, publish a diagnostic for a file with an
// error, announce no command that the extension itself contributes (VS
// Code refuses a command registered twice), and exit cleanly.
//
//   node test/server.js ../../bin/cogflow
'use strict';

const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const rpc = require('vscode-jsonrpc/node');

const manifest = require('../package.json');

async function main() {
  const binary = process.argv[2];
  if (!binary) throw new Error('usage: node test/server.js PATH-TO-COGFLOW');
  const props = manifest.contributes.configuration.properties;
  const args = props['cogflow.server.args'].default;
  assert.deepStrictEqual(args, ['lsp']);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogflow-vscode-'));
  const file = path.join(dir, 'broken.cog');
  const text = 'task t "é 中 😀" {\n  driver browser\n  op1 = clik(button(name: "OK"))\n}\n';
  fs.writeFileSync(file, text);
  const uri = 'file://' + file;

  const proc = cp.spawn(path.resolve(binary), args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  const diagnostics = new Promise((resolve) => {
    conn.onNotification('textDocument/publishDiagnostics', (p) => {
      if (p.uri === uri && p.diagnostics.length > 0) resolve(p.diagnostics);
    });
  });
  conn.onRequest(() => null); // client/registerCapability and the like
  conn.listen();

  const init = await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: 'file://' + dir,
    workspaceFolders: [{ uri: 'file://' + dir, name: 'test' }],
    capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
  });
  const caps = init.capabilities;
  assert.ok(caps.textDocumentSync !== undefined, 'the server announces no textDocumentSync');
  const serverCommands = (caps.executeCommandProvider && caps.executeCommandProvider.commands) || [];
  const ours = (manifest.contributes.commands || []).map((c) => c.command);
  for (const c of serverCommands) {
    assert.ok(!ours.includes(c), `the server's command ${c} is also contributed by the extension`);
  }
  conn.sendNotification('initialized', {});
  conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'cogflow', version: 1, text } });
  const diags = await diagnostics;
  const clik = diags.find((d) => d.range.start.line === 2);
  assert.ok(clik, `no diagnostic on line 3 of broken.cog: ${JSON.stringify(diags)}`);
  assert.strictEqual(clik.range.start.character, 8, `the diagnostic starts at ${JSON.stringify(clik.range.start)}`);

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  const { code, signal } = await exited;
  assert.strictEqual(code, 0, `the server exited with ${code} ${signal || ''}`);
  conn.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`server: ${path.basename(binary)} ${args.join(' ')} initialized (${Object.keys(caps).length} capabilities, ` +
    `commands ${JSON.stringify(serverCommands)}), diagnostic "${clik.message}" at 3:${clik.range.start.character + 1}, exit 0`);
}

const timer = setTimeout(() => {
  console.error('server: no answer within 60 s');
  process.exit(1);
}, 60000);
main().then(
  () => {
    clearTimeout(timer);
    process.exit(0);
  },
  (err) => {
    console.error('server:', err && err.message ? err.message : err);
    process.exit(1);
  }
);
