package compiler

import (
	"github.com/cogflow/cogflow/lang/ast"
)

// stage is one step of a compilation. Compile runs the stages in the
// order of stages, each on what the ones before it left in the compiler
// (the ops, their descriptions, the loops) and on the file once one is
// emitted; doc.go's table describes them, and testdata/stages holds one
// golden case per stage showing its output for a given trace.
type stage struct {
	name string
	run  func(c *compiler, file *ast.File, opts Options) *ast.File
}

// stages are the compilation's stages before printing and checking, in
// order. Each keeps the file it is given unless it emits one.
var stages = []stage{
	{"extract", func(c *compiler, f *ast.File, _ Options) *ast.File { c.ops = extractOps(c.tr); return f }},
	{"android", func(c *compiler, f *ast.File, _ Options) *ast.File { c.ops = androidOps(c.tr, c.ops); return f }},
	{"navigation-waits", func(c *compiler, f *ast.File, _ Options) *ast.File {
		c.ops = navigationWaits(c.tr, c.ops)
		return f
	}},
	{"describe", func(c *compiler, f *ast.File, _ Options) *ast.File { c.enrich(); return f }},
	{"item-loop", func(c *compiler, f *ast.File, _ Options) *ast.File { c.findLoop(); return f }},
	{"choice-loops", func(c *compiler, f *ast.File, _ Options) *ast.File { c.findNumberLoops(); return f }},
	{"value-loops", func(c *compiler, f *ast.File, _ Options) *ast.File { c.findValueLoops(); return f }},
	{"emit", func(c *compiler, _ *ast.File, opts Options) *ast.File { return c.emit(opts) }},
	{"repeat-count", func(c *compiler, f *ast.File, _ Options) *ast.File { c.repeatCounts(f); return f }},
	{"guard", func(c *compiler, f *ast.File, _ Options) *ast.File { c.guardInstruction(f); return f }},
	{"dialogs", func(c *compiler, f *ast.File, _ Options) *ast.File { c.answerDialogs(f); return f }},
	{"semantic", func(c *compiler, f *ast.File, opts Options) *ast.File {
		if opts.LLM != nil {
			c.semantic(f, opts)
		}
		return f
	}},
	// After semantic: the model reads the demonstrated steps (the typing
	// tells it the keyword is an input); api-first then shortens the file.
	{"api-first", func(c *compiler, f *ast.File, opts Options) *ast.File { c.apiFirst(f, opts); return f }},
}

// runStages runs every stage in order and returns the file emitted,
// telling opts.afterStage (this package's tests) of each.
func (c *compiler) runStages(opts Options) *ast.File {
	var file *ast.File
	for _, s := range stages {
		file = s.run(c, file, opts)
		if opts.afterStage != nil {
			opts.afterStage(s.name, c, file)
		}
	}
	return file
}
