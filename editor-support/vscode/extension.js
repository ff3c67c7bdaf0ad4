// The cogflow extension's client: it starts `cogflow lsp` (the language
// server the cogflow binary serves on standard input and output) for .cog
// files and hands it everything else. Plain JavaScript, so that the
// extension needs no build step.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

// serverOptions reads the two settings each time the server starts, so a
// restart picks up a changed path without reloading the window.
function serverOptions() {
  const config = vscode.workspace.getConfiguration('cogflow');
  const command = config.get('server.path') || 'cogflow';
  const args = config.get('server.args');
  const run = { command, args: Array.isArray(args) ? args : ['lsp'] };
  return { run, debug: run };
}

async function start(context) {
  const output = vscode.window.createOutputChannel('cogflow');
  const clientOptions = {
    documentSelector: [{ language: 'cogflow' }],
    outputChannel: output,
    // The server re-checks the open files when a project's knowledge base
    // or configuration changes (workspace/didChangeWatchedFiles).
    synchronize: {
      fileEvents: [
        vscode.workspace.createFileSystemWatcher('**/.cogflow/knowledge.hcl'),
        vscode.workspace.createFileSystemWatcher('**/cogflow.hcl'),
      ],
    },
  };
  // The code lenses' commands (Run task, Dry run) need nothing here: the
  // client registers every command the server lists in
  // executeCommandProvider and sends it back as workspace/executeCommand.
  client = new LanguageClient('cogflow', 'cogflow language server', serverOptions(), clientOptions);
  context.subscriptions.push(output);
  try {
    await client.start();
  } catch (err) {
    const command = serverOptions().run.command;
    vscode.window.showErrorMessage(
      `cogflow: cannot start the language server (${command}): ${err && err.message ? err.message : err}. ` +
        'Set cogflow.server.path to the cogflow binary.'
    );
  }
}

async function stop() {
  if (client) {
    const c = client;
    client = undefined;
    await c.stop();
  }
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('cogflow.restartServer', async () => {
      await stop();
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('cogflow.server')) {
        await stop();
        await start(context);
      }
    })
  );
  await start(context);
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
