package cogflow

import (
	"github.com/cogflow/cogflow/compiler"
	"github.com/cogflow/cogflow/runtime/trace"
)

// CompileOptions configure Compile (compiler.Options): the workflow's file
// name, the model that writes the dependencies (nil: rules only), the
// knowledge base, a literal replay.
type CompileOptions = compiler.Options

// CompileResult is a compiled workflow: its source, its syntax tree, the
// compiler's warnings and the evidence for what it read from the screen.
type CompileResult = compiler.Result

// Compile turns a demonstration trace (trace.Load reads one, a recorder
// writes one) into a workflow: the steps demonstrated, the values typed
// made inputs, repeated rows made a loop, and the choices that need
// judgement made cognitive dependencies. The result is parsed and checked;
// LoadSource(opts.Filename, res.Source, …) loads it to run.
func Compile(tr *trace.Trace, opts CompileOptions) (*CompileResult, error) {
	return compiler.Compile(tr, opts)
}

// CompileAll merges several demonstrations of one task into one workflow
// (compiler.CompileAll): where they agree, one straight line; a step only
// some did, an `if` on what the screen showed; a step one did more times
// than another, a loop. opts.Traces names the traces' files, in order.
// One trace is Compile.
func CompileAll(trs []*trace.Trace, opts CompileOptions) (*CompileResult, error) {
	return compiler.CompileAll(trs, opts)
}
