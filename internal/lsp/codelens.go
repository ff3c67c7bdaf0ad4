package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cogflow/cogflow/lang/ast"
)

// Code lenses "Run task" and "Dry run" above each task. Choosing one sends
// workspace/executeCommand with the command and the file and task as
// arguments; the server runs the task with the cogflow binary
// (codelens_run.go) and shows the journal's outcome.

// CodeLens is the protocol's code lens.
type CodeLens struct {
	Range   Range    `json:"range"`
	Command *Command `json:"command,omitempty"`
}

// The commands the lenses carry, announced in executeCommandProvider.
const (
	CommandRunTask = "cogflow.runTask"
	CommandDryRun  = "cogflow.dryRun"
)

func init() {
	register("textDocument/codeLens", codeLens, func(caps map[string]any) {
		caps["codeLensProvider"] = map[string]any{"resolveProvider": false}
	})
	register("workspace/executeCommand", executeCommand, func(caps map[string]any) {
		caps["executeCommandProvider"] = map[string]any{"commands": []string{CommandRunTask, CommandDryRun}}
	})
}

func codeLens(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	d, err := requestedDocument(s, params)
	if err != nil {
		return nil, err
	}
	lenses := []CodeLens{}
	if d.File == nil {
		return lenses, nil
	}
	for _, decl := range d.File.Decls {
		t, ok := decl.(*ast.Task)
		if !ok {
			continue
		}
		// On the task's name: the line of `task NAME "goal" {`.
		rng := d.Range(t.Name.Range)
		args := []any{d.URI, t.Name.Name}
		lenses = append(lenses,
			CodeLens{Range: rng, Command: &Command{Title: "▶ Run task", Command: CommandRunTask, Arguments: args}},
			CodeLens{Range: rng, Command: &Command{Title: "Dry run", Command: CommandDryRun, Arguments: args}})
	}
	return lenses, nil
}

type executeCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

func executeCommand(ctx context.Context, s *Server, params json.RawMessage) (any, error) {
	var p executeCommandParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.Command != CommandRunTask && p.Command != CommandDryRun {
		return nil, &ResponseError{Code: CodeInvalidParams, Message: "unknown command " + p.Command}
	}
	var uri, task string
	if len(p.Arguments) != 2 || json.Unmarshal(p.Arguments[0], &uri) != nil || json.Unmarshal(p.Arguments[1], &task) != nil {
		return nil, &ResponseError{Code: CodeInvalidParams, Message: fmt.Sprintf("%s takes two arguments: the document's URI and the task's name", p.Command)}
	}
	return runTask(ctx, s, uri, task, p.Command == CommandDryRun)
}
