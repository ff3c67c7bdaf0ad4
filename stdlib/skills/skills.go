// Package skills holds the skill libraries: the skills a task calls without
// declaring them. Each driver ships one, written in the language
// (browser.cog, android.cog, uia.cog, embedded here), and a project adds its
// own in <project>/.cogflow/skills/<driver>/*.cog, where `cogflow skills
// discover` puts the skills it validated. A *Library is what the checker
// consults (it implements check.SkillLibrary) and the interpreter runs.
//
// A library file holds skill declarations only. The comment above each
// skill documents it: the first line is a one-sentence description, and a
// line `# example: name(…)` shows a call (Skill.Description, Skill.Example).
package skills

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cogflow/cogflow/internal/readlimit"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/syntax"
)

//go:embed *.cog
var stdlibFiles embed.FS

// Drivers are the drivers whose skill libraries cogflow ships, in the
// order `cogflow skills list` shows them.
var Drivers = []string{"browser", "android", "uia"}

// Skill is one library skill: its declaration and where it comes from.
type Skill struct {
	Driver string
	Decl   *ast.Skill
	// File is the library file it is declared in: "stdlib/skills/NAME.cog"
	// for a shipped skill, the path of a project's file otherwise.
	File string
	// Project is set for a project's own skill.
	Project bool
}

// Name is the skill's name.
func (s *Skill) Name() string { return s.Decl.Name.Name }

// doc is the skill's own comment: the block of comment lines directly
// above it, without a file's header comment that a blank line separates.
func (s *Skill) doc() []ast.Comment {
	lead := s.Decl.Comments.Leading
	start := len(lead)
	for start > 0 && (start == len(lead) || lead[start-1].Range.Start.Line == lead[start].Range.Start.Line-1) {
		start--
	}
	if start == len(lead) {
		return nil
	}
	if n := len(lead); lead[n-1].Range.Start.Line != s.Decl.Range.Start.Line-1 {
		return nil // a blank line between the comments and the skill
	}
	return lead[start:]
}

// Description is the first line of the skill's comment.
func (s *Skill) Description() string {
	for _, c := range s.doc() {
		line := commentText(c.Text)
		if line != "" && !strings.HasPrefix(line, "example:") {
			return line
		}
	}
	return ""
}

// Example is the call its comment shows after `# example:`, or "".
func (s *Skill) Example() string {
	for _, c := range s.doc() {
		if rest, ok := strings.CutPrefix(commentText(c.Text), "example:"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

func commentText(t string) string {
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "#"))
}

// Library is a set of skills per driver. The zero value is empty; Add and
// AddDir fill it. A library is read-only once a check uses it.
type Library struct {
	byDriver map[string]map[string]*Skill
}

var _ check.SkillLibrary = (*Library)(nil)

// Add parses src, a library file of driver, and adds its skills. A
// project's skill (project) of the name of a shipped one replaces it (it
// hides it); two skills of one name from the same side, or a skill named
// as an action, are errors. The file may declare no task.
func (l *Library) Add(driver, filename string, src []byte, project bool) diag.List {
	f, ds := syntax.Parse(filename, src)
	if ds.HasErrors() {
		return ds
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.Skill:
			if _, isAction := check.Actions[d.Name.Name]; isAction {
				// The checker resolves the action first: the skill could
				// never run.
				ds.Errorf(d.Name.Range, "skill %s has the name of an action", d.Name.Name)
				continue
			}
			if prev := l.Lookup(driver, d.Name.Name); prev != nil && prev.Project == project {
				// Two files of one project (or one file twice) declaring
				// a name: which one a task ran would hang on file order.
				ds.Errorf(d.Name.Range, "skill %s is already declared at %s", d.Name.Name, prev.Decl.Name.Range)
				continue
			}
			if l.byDriver == nil {
				l.byDriver = map[string]map[string]*Skill{}
			}
			if l.byDriver[driver] == nil {
				l.byDriver[driver] = map[string]*Skill{}
			}
			l.byDriver[driver][d.Name.Name] = &Skill{Driver: driver, Decl: d, File: filename, Project: project}
		case *ast.Task:
			ds.Errorf(d.Name.Range, "a skill library holds skills only; task %s belongs in a workflow file", d.Name.Name)
		}
	}
	return ds
}

// AddDir adds a project's skills: every dir/<driver>/*.cog, for the
// drivers cogflow ships. A missing folder adds nothing.
func (l *Library) AddDir(dir string) diag.List {
	var ds diag.List
	for _, driver := range Drivers {
		files, err := filepath.Glob(filepath.Join(dir, driver, "*.cog"))
		if err != nil {
			continue // only a malformed pattern fails, and this one is fixed
		}
		sort.Strings(files)
		for _, path := range files {
			// Bounded as a workflow is: a huge file (or a device named
			// *.cog) is refused, not read into memory whole.
			src, err := readlimit.File(path, "a skill file", readlimit.MaxWorkflowSize)
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					ds.Errorf(ast.Range{Filename: path}, "cannot read the skill file: %v", err)
				}
				continue
			}
			ds = append(ds, l.Add(driver, path, src, true)...)
		}
	}
	return ds
}

var (
	stdlibOnce sync.Once
	stdlib     *Library
	stdlibErr  diag.List
)

// Stdlib returns the skills cogflow ships, one library file per driver.
// The files are tested to parse and check; a broken one is a build bug,
// reported by StdlibDiagnostics.
func Stdlib() *Library {
	stdlibOnce.Do(func() {
		stdlib = &Library{}
		for _, driver := range Drivers {
			name := driver + ".cog"
			src, err := stdlibFiles.ReadFile(name)
			if err != nil {
				stdlibErr.Errorf(ast.Range{Filename: name}, "%v", err)
				continue
			}
			stdlibErr = append(stdlibErr, stdlib.Add(driver, "stdlib/skills/"+name, src, false)...)
		}
	})
	return stdlib
}

// StdlibDiagnostics are the errors parsing the shipped libraries gave.
func StdlibDiagnostics() diag.List { Stdlib(); return stdlibErr }

// StdlibSource returns the text of the shipped library file of driver.
func StdlibSource(driver string) ([]byte, error) { return stdlibFiles.ReadFile(driver + ".cog") }

// WithProject returns the shipped skills and the project's, read from
// dir/<driver>/*.cog (dir is the project's skills folder,
// <project>/.cogflow/skills). The project's hide shipped ones of the same
// name.
func WithProject(dir string) (*Library, diag.List) {
	l := Stdlib().clone()
	if dir == "" {
		return l, nil
	}
	return l, l.AddDir(dir)
}

func (l *Library) clone() *Library {
	c := &Library{byDriver: map[string]map[string]*Skill{}}
	for d, m := range l.byDriver {
		c.byDriver[d] = map[string]*Skill{}
		for n, s := range m {
			c.byDriver[d][n] = s
		}
	}
	return c
}

// Lookup returns the skill name of driver's library, or nil.
func (l *Library) Lookup(driver, name string) *Skill {
	if l == nil {
		return nil
	}
	return l.byDriver[driver][name]
}

// All returns the skills of driver, sorted by name; driver "" gives
// every driver's, by driver then name.
func (l *Library) All(driver string) []*Skill {
	if l == nil {
		return nil
	}
	var out []*Skill
	for _, d := range Drivers {
		if driver != "" && d != driver {
			continue
		}
		for _, n := range l.Names(d) {
			out = append(out, l.byDriver[d][n])
		}
	}
	return out
}

// Skill implements check.SkillLibrary.
func (l *Library) Skill(driver, name string) *ast.Skill {
	if s := l.Lookup(driver, name); s != nil {
		return s.Decl
	}
	return nil
}

// DriversOf implements check.SkillLibrary.
func (l *Library) DriversOf(name string) []string {
	if l == nil {
		return nil
	}
	var out []string
	for _, d := range Drivers {
		if l.byDriver[d][name] != nil {
			out = append(out, d)
		}
	}
	return out
}

// Names implements check.SkillLibrary.
func (l *Library) Names(driver string) []string {
	if l == nil {
		return nil
	}
	var names []string
	for n := range l.byDriver[driver] {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// String names the library's size, for logs and tests.
func (l *Library) String() string {
	var parts []string
	for _, d := range Drivers {
		parts = append(parts, fmt.Sprintf("%s: %d", d, len(l.byDriver[d])))
	}
	return "skills{" + strings.Join(parts, ", ") + "}"
}
