package cogflow

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strings"

	"github.com/cogflow/cogflow/internal/readlimit"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/stdlib/kb"
	"github.com/cogflow/cogflow/stdlib/skills"
)

// Options configure Load and LoadSource.
type Options struct {
	// Knowledge is the knowledge base the workflow's cognitive
	// dependencies are checked against. Nil: the project's (ProjectDir),
	// else the default shipped with cogflow.
	Knowledge *kb.KB
	// ProjectDir is the project folder (".cogflow") whose knowledge.hcl,
	// what `cogflow reflect` learned, is used when Knowledge is nil. A
	// broken file is reported with the workflow's diagnostics and the
	// default used instead. "": the default knowledge base. Its skills
	// folder (skills/<driver>/*.cog) adds the project's own skills to the
	// ones the drivers ship (ProjectSkills).
	ProjectDir string
}

// Workflow is a parsed and checked .cog file. It is never changed after
// Load: one Workflow may Run any number of times, concurrently (a batch
// runs its rows in parallel), since each run keeps its state (variables,
// secrets, journal, driver) to itself.
type Workflow struct {
	name string
	src  []byte
	file *ast.File // nil when the file has syntax errors
	info *check.Info
	// tree and treeInfo are the file as far as it parsed, and what the
	// checker learned of it, also when it has syntax errors.
	tree      *ast.File
	treeInfo  *check.Info
	diags     diag.List
	knowledge *kb.KB
	skills    *skills.Library
}

// Load reads, parses and checks the workflow file at path. The
// diagnostics hold its errors and warnings, sorted by position; a file
// with errors still gives a Workflow (to render them with its source)
// but it cannot Run. A file that cannot be read gives nil and one error.
func Load(path string, opts Options) (*Workflow, diag.List) {
	src, err := readlimit.File(path, "a workflow", readlimit.MaxWorkflowSize)
	if err != nil {
		var ds diag.List
		ds.Errorf(ast.Range{Filename: path}, "%v", err)
		return nil, ds
	}
	return LoadSource(path, src, opts)
}

// LoadSource parses and checks src as the workflow file name (used in
// positions); see Load.
func LoadSource(name string, src []byte, opts Options) (*Workflow, diag.List) {
	w := &Workflow{name: name, src: src, knowledge: opts.Knowledge}
	var kdiags diag.List
	if w.knowledge == nil && opts.ProjectDir != "" {
		w.knowledge, kdiags = ProjectKB(opts.ProjectDir)
	}
	if w.knowledge == nil {
		w.knowledge = kb.Default() // checked against the default instead
	}
	// A file with syntax errors is still checked, as far as it parsed, so
	// that its other errors come out together with them; it keeps no
	// tree, since it cannot run.
	env := kb.CheckEnv(w.knowledge)
	w.skills = skills.Stdlib()
	if opts.ProjectDir != "" {
		var sdiags diag.List
		w.skills, sdiags = ProjectSkills(opts.ProjectDir)
		env.Skills = w.skills
		kdiags = append(kdiags, sdiags...)
	}
	parsed := syntax.ParsePartial(name, src)
	w.diags = parsed.Diags
	var more diag.List
	w.tree = parsed.File
	if parsed.Diags.HasErrors() {
		w.treeInfo, more = check.CheckPartial(parsed.File, env, parsed.Broken, parsed.Mentioned)
	} else {
		w.file = parsed.File
		w.info, more = check.Check(w.file, env)
		w.treeInfo = w.info
	}
	w.diags = append(w.diags, more...)
	w.diags = append(w.diags, kdiags...)
	w.diags.Sort()
	return w, w.Check()
}

// Check returns the workflow's diagnostics: syntax errors, else the
// checker's errors and warnings (and the project knowledge base's), sorted
// by position. Run refuses a workflow whose diagnostics hold an error.
func (w *Workflow) Check() diag.List { return append(diag.List(nil), w.diags...) }

// Name is the file name the workflow was loaded as.
func (w *Workflow) Name() string { return w.name }

// Source is the workflow's text. Do not change it.
func (w *Workflow) Source() []byte { return w.src }

// SHA256 is the hex SHA-256 of the source: a journal records it, and a
// resume refuses a workflow that changed since.
func (w *Workflow) SHA256() string {
	sum := sha256.Sum256(w.src)
	return hex.EncodeToString(sum[:])
}

// File is the syntax tree; nil when the file has syntax errors.
func (w *Workflow) File() *ast.File { return w.file }

// Tree is the syntax tree as far as it parsed and what the checker
// learned of it, also when the file has syntax errors (File is nil then):
// an editor shows an outline, hovers and completes while a line is
// broken. A tree with syntax errors cannot run.
func (w *Workflow) Tree() (*ast.File, *check.Info) { return w.tree, w.treeInfo }

// Info is what the checker learned (types, references), for the graph and
// the interpreter.
func (w *Workflow) Info() *check.Info { return w.info }

// Skills are the library skills the workflow was checked against: the
// drivers' and, with Options.ProjectDir, the project's.
func (w *Workflow) Skills() *skills.Library { return w.skills }

// Knowledge is the knowledge base the workflow was checked against.
func (w *Workflow) Knowledge() *kb.KB { return w.knowledge }

// Task returns the task called name, or the first task when name is "".
func (w *Workflow) Task(name string) (*ast.Task, error) {
	if w.file == nil {
		return nil, &LoadError{Name: w.name, Diags: w.diags}
	}
	return runtime.TaskNamed(w.file, name)
}

// Render writes diagnostics the way the compiler does: file:line:col, the
// source line and a caret. Lines of other files (the project's knowledge
// base and skills) are read from disk, the shipped skill libraries' from
// the binary.
func (w *Workflow) Render(out io.Writer, ds diag.List) {
	ds.Render(out, func(name string) []byte {
		if driver, ok := strings.CutPrefix(name, "stdlib/skills/"); ok {
			b, _ := skills.StdlibSource(strings.TrimSuffix(driver, ".cog"))
			return b
		}
		if name != w.name {
			b, _ := os.ReadFile(name)
			return b
		}
		return w.src
	})
}

// LoadError is a workflow that cannot run: it has errors (Diags).
type LoadError struct {
	Name  string
	Diags diag.List
}

func (e *LoadError) Error() string {
	for _, d := range e.Diags {
		if d.Severity == diag.Error {
			return d.String()
		}
	}
	return e.Name + ": has errors"
}
