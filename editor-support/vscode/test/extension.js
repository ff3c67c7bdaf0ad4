// Activates extension.js with the real vscode-languageclient and a
// stand-in for the `vscode` module (only VS Code itself provides it), with
// cogflow.server.path set to a binary that is missing and to one that
// exits at once (an old cogflow without `lsp`): activation must end
// while the error message is still open, and the one message the
// extension shows must name the command and the setting to change, and
// offer the output channel where the server's own words are. Then a
// settings change while a slow server starts: one server must run, not two.
//
//   node test/extension.js
'use strict';

const assert = require('assert');
const fs = require('fs');
const Module = require('module');
const os = require('os');
const path = require('path');

// stub is any object or function of the vscode API the client touches
// and the test does not look at: every property is another stub.
function stub() {
  const f = function () {
    return stub();
  };
  return new Proxy(f, {
    get(_, p) {
      if (p === 'then') return undefined; // not a promise
      if (p === Symbol.iterator) return function* () {};
      return stub();
    },
    construct: () => stub(),
    apply: () => stub(),
  });
}

// fakeVSCode records the error messages and the output channel's lines
// in the current case's seen. There is one for the whole test: the
// language client binds `vscode` once, when it is first loaded.
function fakeVSCode(current) {
  const seen = new Proxy({}, { get: (_, p) => current.seen[p], set: (_, p, v) => ((current.seen[p] = v), true) });
  const output = {
    append: (s) => seen.output.push(s),
    appendLine: (s) => seen.output.push(s + '\n'),
    show: () => seen.shown++,
    clear() {},
    replace() {},
    hide() {},
    dispose() {},
  };
  const overrides = {
    version: '1.82.0',
    window: {
      createOutputChannel: () => output,
      // A message stays open until the person clicks: click() does.
      showErrorMessage: (message, ...items) =>
        new Promise((click) => seen.errors.push({ message, items, click })),
    },
    workspace: {
      workspaceFolders: undefined,
      getConfiguration: () => ({ get: (key) => ({ 'server.path': current.serverPath, 'server.args': ['lsp'] })[key] }),
      onDidChangeConfiguration: (handler) => {
        current.configChanged = handler;
        return { dispose() {} };
      },
    },
  };
  const base = stub();
  return new Proxy(
    {},
    {
      get(_, p) {
        const o = overrides[p];
        if (o === undefined) return base[p];
        if (typeof o !== 'object') return o;
        return new Proxy(o, { get: (t, q) => (q in t ? t[q] : base[p][q]) });
      },
    }
  );
}

const current = { serverPath: '', seen: null, configChanged: null };
const vscode = fakeVSCode(current);

// activateWith activates the extension with cogflow.server.path set to
// serverPath, runs during(changed) while activation is under way (changed
// tells the extension that the cogflow.server settings changed), clicks
// the messages' first buttons, runs after() and deactivates.
async function activateWith(serverPath, during = async () => {}, after = async () => {}) {
  const seen = { errors: [], output: [], shown: 0 };
  current.serverPath = serverPath;
  current.seen = seen;
  const load = Module._load;
  const log = console.error;
  console.error = () => {}; // vscode-jsonrpc's "Sending request failed."
  Module._load = function (request) {
    if (request === 'vscode') return vscode;
    return load.apply(this, arguments);
  };
  try {
    const main = require.resolve('../extension.js');
    delete require.cache[main];
    const extension = require(main);
    // Activation ends with the messages still open.
    const activation = extension.activate({ subscriptions: [] });
    await during(() => current.configChanged({ affectsConfiguration: (s) => s === 'cogflow.server' }));
    await activation;
    for (const e of seen.errors) e.click(e.items[0]);
    await delay(100);
    await after();
    await extension.deactivate();
  } finally {
    Module._load = load;
    console.error = log;
  }
  return seen;
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A language server that takes half a second to answer initialize, and
// leaves a file alive-PID next to itself while it runs.
const slowServer = `#!${process.execPath}
const fs = require('fs');
const path = require('path');
const alive = path.join(__dirname, 'alive-' + process.pid);
fs.writeFileSync(alive, '');
process.on('exit', () => fs.rmSync(alive, { force: true }));
const send = (o) => {
  const s = JSON.stringify(o);
  process.stdout.write('Content-Length: ' + Buffer.byteLength(s) + '\\r\\n\\r\\n' + s);
};
let buf = Buffer.alloc(0);
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  for (;;) {
    const i = buf.indexOf('\\r\\n\\r\\n');
    if (i < 0) return;
    const n = Number(/Content-Length: (\\d+)/i.exec(buf.slice(0, i).toString())[1]);
    if (buf.length < i + 4 + n) return;
    const m = JSON.parse(buf.slice(i + 4, i + 4 + n).toString());
    buf = buf.slice(i + 4 + n);
    if (m.method === 'initialize') setTimeout(() => send({ jsonrpc: '2.0', id: m.id, result: { capabilities: {} } }), 500);
    else if (m.method === 'shutdown') send({ jsonrpc: '2.0', id: m.id, result: null });
    else if (m.method === 'exit') process.exit(0);
  }
});
process.stdin.on('end', () => process.exit(0));
`;

// restartWhileStarting changes the server settings while the first server
// is still starting: the first must be stopped, not left running beside
// the second (two servers answer every request twice).
async function restartWhileStarting(dir) {
  const slow = path.join(dir, 'slow-cogflow');
  fs.writeFileSync(slow, slowServer, { mode: 0o755 });
  const running = () => fs.readdirSync(dir).filter((f) => f.startsWith('alive-')).length;
  let during = 0;
  await activateWith(
    slow,
    async (changed) => {
      await delay(200); // the server runs and has not answered initialize
      await changed();
    },
    async () => {
      during = running();
    }
  );
  for (let i = 0; i < 50 && running() > 0; i++) await delay(100); // the server's exit
  assert.strictEqual(during, 1, `${during} servers run after a restart during the start`);
  assert.strictEqual(running(), 0, 'a server runs on after deactivation');
  console.log('extension: a restart while the server starts leaves one server, none after deactivation');
}

async function main() {
  // vscode-jsonrpc writes to a server that has exited, and Node reports
  // it as an uncaught error; VS Code's extension host logs and ignores it.
  process.on('uncaughtException', (err) => {
    if (err && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
  process.on('unhandledRejection', () => {});
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogflow-extension-'));
  const missing = path.join(dir, 'no-such-cogflow');
  const old = path.join(dir, 'old-cogflow');
  fs.writeFileSync(old, '#!/bin/sh\necho \'cogflow: unknown command "lsp"\' >&2\nexit 2\n', { mode: 0o755 });
  const cases = [
    [missing, /ENOENT/],
    [old, /unknown command "lsp"/],
  ];
  for (const [binary, cause] of cases) {
    const seen = await activateWith(binary);
    const ours = seen.errors.filter((e) => e.message.startsWith('cogflow: '));
    assert.strictEqual(ours.length, 1, `${binary}: the extension's messages: ${JSON.stringify(seen.errors)}`);
    const { message, items } = ours[0];
    assert.ok(message.includes(binary), `${binary}: the message does not name the binary: ${message}`);
    assert.ok(message.includes('cogflow.server.path'), `${binary}: the message does not name the setting: ${message}`);
    assert.deepStrictEqual(items, ['Show output'], `${binary}: the message's buttons`);
    assert.ok(seen.shown > 0, `${binary}: "Show output" does not show the output channel`);
    assert.ok(cause.test(seen.output.join('')), `${binary}: the output channel does not say ${cause}: ${seen.output.join('')}`);
    console.log(`extension: ${path.basename(binary)}: ${message}`);
  }
  await restartWhileStarting(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

const timer = setTimeout(() => {
  console.error('extension: activation did not end within 30 s');
  process.exit(1);
}, 30000);
main().then(
  () => {
    clearTimeout(timer);
    process.exit(0);
  },
  (err) => {
    console.error('extension:', err && err.message ? err.message : err);
    process.exit(1);
  }
);
