// The cogflow extension's client: it starts `cogflow lsp` (the language
// server the cogflow binary serves on standard input and output) for .cog
// files and hands it everything else. Plain JavaScript, so that the
// extension needs no build step.
'use strict';

const vscode = require('vscode');
const { LanguageClient, State } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.OutputChannel | undefined} */
let output; // one channel for the window, kept across restarts
/** @type {vscode.FileSystemWatcher[]} */
let watchers = []; // the client hooks them but never disposes them: activate does

// serverOptions reads the two settings each time the server starts, so a
// restart picks up a changed path without reloading the window.
function serverOptions() {
  const config = vscode.workspace.getConfiguration('cogflow');
  const command = config.get('server.path') || 'cogflow';
  const args = config.get('server.args');
  const run = { command, args: Array.isArray(args) ? args : ['lsp'] };
  return { run, debug: run };
}

async function start() {
  const clientOptions = {
    documentSelector: [{ language: 'cogflow' }],
    outputChannel: output,
    // The server re-checks the open files when a project's knowledge base
    // or configuration changes (workspace/didChangeWatchedFiles).
    synchronize: { fileEvents: watchers },
  };
  // The code lenses' commands (Run task, Dry run) need nothing here: the
  // client registers every command the server lists in
  // executeCommandProvider and sends it back as workspace/executeCommand.
  client = new LanguageClient('cogflow', 'cogflow language server', serverOptions(), clientOptions);
  try {
    await client.start();
  } catch (err) {
    // A binary that starts and exits (an old cogflow without `lsp`, another
    // program) fails with a broken pipe: its own words are on its stderr,
    // which the client copies to the output channel, hence the button.
    // Not awaited: the message stays until the person closes it, and
    // activation must not wait for that.
    const command = serverOptions().run.command;
    vscode.window
      .showErrorMessage(
        `cogflow: cannot start the language server (${command}): ${err && err.message ? err.message : err}. ` +
          'Set cogflow.server.path to the cogflow binary; the server\'s output is in the "cogflow" output channel.',
        'Show output'
      )
      .then((choice) => {
        if (choice === 'Show output') output.show(true);
      });
  }
}

// stop stops the server if it runs; a client whose server never started
// (a wrong cogflow.server.path) has nothing to stop, and stop() would throw.
// A client still starting (a restart or a settings change right after
// activation) cannot be stopped either: its start is waited for, at most
// 10 s, or its server would run on beside the next one.
async function stop() {
  const c = client;
  client = undefined;
  if (c && c.state === State.Starting) {
    // start() of a client that is starting returns that start's promise.
    let timer;
    const timeout = new Promise((resolve) => (timer = setTimeout(resolve, 10000)));
    await Promise.race([c.start().catch(() => {}), timeout]);
    clearTimeout(timer);
  }
  if (c && c.isRunning()) {
    try {
      await c.stop();
    } catch (err) {
      output.appendLine(`stopping the server: ${err && err.message ? err.message : err}`);
    }
  }
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  output = vscode.window.createOutputChannel('cogflow');
  watchers = [
    vscode.workspace.createFileSystemWatcher('**/.cogflow/knowledge.hcl'),
    vscode.workspace.createFileSystemWatcher('**/cogflow.hcl'),
  ];
  context.subscriptions.push(
    output,
    ...watchers,
    vscode.commands.registerCommand('cogflow.restartServer', async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('cogflow.server')) {
        await stop();
        await start();
      }
    })
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
