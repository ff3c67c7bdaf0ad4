// Package check verifies a parsed workflow before anything runs: names are
// unique and only refer to what was declared before them, every action gets
// arguments of the right types, cognitive dependencies name known
// categories, and secrets never flow into a prompt.
//
// The checker knows the language's own actions and element vocabulary; the
// function library and the knowledge base come in through Env, so that this
// package stays free of the rest of cogflow.
package check

import (
	"fmt"
	"math"
	"strconv"

	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/types"
)

// Knowledge is what the checker needs of the knowledge base.
type Knowledge interface {
	// MainOf returns the main category of a known subcategory.
	MainOf(sub string) (string, bool)
	// ResultOf returns the result type name ("text", "number", "element")
	// of a known subcategory, or of a new one written "main.sub" (the main
	// category's default).
	ResultOf(sub string) string
	// IsMain reports whether name is one of the main categories.
	IsMain(name string) bool
	// MainNames lists the main categories.
	MainNames() []string
	// Closest lists up to n known subcategories spelled like name.
	Closest(name string, n int) []string
}

// Env is the world a workflow is checked against.
type Env struct {
	Knowledge Knowledge
	Functions map[string]function.Function
	// Drivers are the driver names a task may pick.
	Drivers []string
	// Skills are the skills a workflow calls without declaring them: the
	// ones its driver ships (stdlib/skills) and the project's
	// (.cogflow/skills). Nil means none.
	Skills SkillLibrary
}

// SkillLibrary is a set of skills declared outside the file being checked,
// per driver. A skill the file declares hides a library skill of the same
// name.
type SkillLibrary interface {
	// Skill returns the skill name that a task run by driver may call,
	// or nil.
	Skill(driver, name string) *ast.Skill
	// DriversOf lists the drivers that have a skill of this name, so
	// that a call in a task of another driver says which one lacks it.
	DriversOf(name string) []string
	// Names lists the skills a task run by driver may call, sorted.
	Names(driver string) []string
}

// DefaultDrivers are the drivers cogflow ships.
var DefaultDrivers = []string{"browser", "android", "uia"}

// Info is what the checker learned about a file, for later stages (the
// graph, the interpreter): the type of every step and which steps depend on
// which.
type Info struct {
	// StepTypes maps each step to the type of its value.
	StepTypes map[*ast.Step]types.Type
	// Refs maps each reference to the declaration it resolved to: an
	// *ast.InputDecl, *ast.AnchorDecl, *ast.Step, *ast.ForStmt (the loop
	// variable) or *ast.Param.
	Refs map[*ast.Ref]ast.Node
	// DepTypes maps each cognitive dependency to its result type.
	DepTypes map[*ast.Dependency]types.Type
	// LibrarySkills are the library skills (Env.Skills) the file calls,
	// by name, and those they call: the interpreter runs them like the
	// file's own.
	LibrarySkills map[string]*ast.Skill
	// LibraryByDriver are the same skills by driver, then name: a file
	// whose tasks run on different drivers may call a skill name that
	// both libraries declare, and each task must run its own driver's
	// (LibrarySkills keeps the first one met, for an editor's hover).
	LibraryByDriver map[string]map[string]*ast.Skill
}

// Check checks a file and returns what it learned and its diagnostics,
// sorted by position.
func Check(f *ast.File, env *Env) (*Info, diag.List) { return check(f, env, nil, nil) }

func check(f *ast.File, env *Env, broken, mentioned map[string]bool) (*Info, diag.List) {
	if env.Drivers == nil {
		env.Drivers = DefaultDrivers
	}
	c := &checker{env: env, info: &Info{StepTypes: map[*ast.Step]types.Type{}, Refs: map[*ast.Ref]ast.Node{}, DepTypes: map[*ast.Dependency]types.Type{}},
		skills: map[string]*skillInfo{}, broken: broken, mentioned: mentioned}
	c.declare(f)
	c.fileDrv = fileDriver(f)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.Task:
			c.task(d)
		case *ast.Skill:
			c.skillBody(c.skills[d.Name.Name])
		}
	}
	c.diags.Sort()
	return c.info, c.diags
}

type checker struct {
	env    *Env
	info   *Info
	diags  diag.List
	skills map[string]*skillInfo
	// libSkills are the library skills called so far, by driver and name
	// (library.go).
	libSkills map[string]*skillInfo
	// drv is the driver that runs the code being checked: the task's, or
	// for a skill the file's (fileDrv) or its library's.
	drv, fileDrv string
	// fn is the task or skill being checked; inSkill the skill, nil in
	// a task.
	fn      *funcState
	inSkill *skillInfo
	// current is the step being checked, so that a step using its own
	// name gets a message of its own.
	current *ast.Step
	// loops counts the for, repeat, while and until bodies being checked,
	// for break and continue.
	loops int
	// broken are the names whose declaration did not parse, mentioned
	// the names used in what did not parse (CheckPartial).
	broken, mentioned map[string]bool
}

// skillInfo is a skill's signature, computed lazily so that skills may call
// skills declared after them; checking marks detect recursion.
type skillInfo struct {
	decl *ast.Skill
	// driver is set for a library skill: the driver whose library it is.
	driver string
	// libCall is, for a file's skill, a library skill its body calls
	// (directly or through other skills of the file): it runs only under
	// the file's driver, the one the body was checked against.
	libCall  string
	params   []types.Type
	result   types.Type
	checked  bool
	checking bool
}

// declare records the top-level names and rejects duplicates.
func (c *checker) declare(f *ast.File) {
	seen := map[string]ast.Decl{}
	for _, d := range f.Decls {
		name := d.DeclName()
		if prev, ok := seen[name]; ok {
			c.diags.Errorf(declNameRange(d), "%s %s is already declared at line %d", declKind(d), name, declNameRange(prev).Start.Line)
			continue
		}
		seen[name] = d
		if s, ok := d.(*ast.Skill); ok {
			if _, isAction := Actions[name]; isAction {
				c.diags.Errorf(s.Name.Range, "skill %s has the name of an action", name)
			}
			c.skills[name] = &skillInfo{decl: s}
		}
	}
}

func declKind(d ast.Decl) string {
	if _, ok := d.(*ast.Skill); ok {
		return "skill"
	}
	return "task"
}

func declNameRange(d ast.Decl) ast.Range {
	switch d := d.(type) {
	case *ast.Task:
		return d.Name.Range
	case *ast.Skill:
		return d.Name.Range
	}
	return d.Rng()
}

func (c *checker) task(t *ast.Task) {
	c.fn = newFuncState(fmt.Sprintf("task %s", t.Name.Name), t.Body)
	var driver *ast.DriverDecl
	for _, s := range t.Body.Stmts {
		if d, ok := s.(*ast.DriverDecl); ok {
			if driver != nil {
				c.diags.Errorf(d.Range, "task %s already names its driver at line %d", t.Name.Name, driver.Range.Start.Line)
				continue
			}
			driver = d
			c.driver(d)
		}
	}
	c.drv = ""
	if driver != nil {
		c.drv = driver.Name.Name
	}
	if driver == nil {
		c.diags.Errorf(t.Name.Range, "task %s does not say which driver runs it; add `driver browser`, `driver android` or `driver uia`", t.Name.Name)
	}
	c.block(t.Body, true)
	c.reportUnused()
}

func (c *checker) driver(d *ast.DriverDecl) {
	for _, name := range c.env.Drivers {
		if name == d.Name.Name {
			return
		}
	}
	c.diags.Errorf(d.Name.Range, "unknown driver %s; drivers are %s", d.Name.Name, orList(c.env.Drivers))
}

// skillBody checks a skill once and computes its result type: the value of
// its last step.
func (c *checker) skillBody(s *skillInfo) {
	if s == nil || s.checked || s.checking {
		return
	}
	s.checking = true
	outer, outerLoops, outerDrv, outerSkill := c.fn, c.loops, c.drv, c.inSkill
	defer func() { c.drv, c.inSkill = outerDrv, outerSkill }()
	c.inSkill = s
	c.drv = c.fileDrv
	if s.driver != "" {
		c.drv = s.driver
	}
	c.loops = 0
	c.fn = newFuncState(fmt.Sprintf("skill %s", s.decl.Name.Name), s.decl.Body)
	s.params = make([]types.Type, len(s.decl.Params))
	for i, p := range s.decl.Params {
		t := c.resolveType(p.Type)
		s.params[i] = t
		c.fn.declare(c, p.Name, &symbol{kind: symParam, typ: t, decl: p, secret: secretName(t, symParam, p.Name.Name)})
	}
	c.block(s.decl.Body, false)
	s.result = types.VoidT
	if n := len(s.decl.Body.Stmts); n > 0 {
		if st, ok := s.decl.Body.Stmts[n-1].(*ast.Step); ok {
			s.result = c.info.StepTypes[st]
		}
	}
	c.fn, c.loops = outer, outerLoops
	s.checking, s.checked = false, true
}

// secretName names what a declaration of type t carries when it is a
// secret (or a list of secrets): "input pin", "parameter pin".
func secretName(t types.Type, kind symKind, name string) string {
	if t.Kind == types.List && t.Elem != nil {
		t = *t.Elem
	}
	if t.Kind == types.Secret {
		return kind.String() + " " + name
	}
	return ""
}

// block checks statements in order; top is true for a task's own body,
// where inputs and the driver belong.
func (c *checker) block(b *ast.Block, top bool) {
	for _, s := range b.Stmts {
		c.stmt(s, top)
	}
}

func (c *checker) stmt(s ast.Stmt, top bool) {
	switch s := s.(type) {
	case *ast.DriverDecl:
		if !top {
			c.diags.Errorf(s.Range, "driver belongs at the top of a task, not in a loop or skill")
		}
	case *ast.InputDecl:
		c.input(s, top)
	case *ast.AnchorDecl:
		t, _ := c.anchorValue(s.Value)
		c.fn.declare(c, s.Name, &symbol{kind: symAnchor, typ: t, decl: s})
	case *ast.Step:
		c.step(s)
	case *ast.ForStmt:
		c.forStmt(s)
	case *ast.IfStmt:
		c.ifStmt(s)
	case *ast.RepeatStmt:
		c.repeatStmt(s)
	case *ast.WhileStmt:
		c.whileStmt(s)
	case *ast.TryStmt:
		c.branch(s, s.Body)
		c.branch(s, s.Fallback)
	case *ast.ExploreStmt:
		c.exploreStmt(s)
	case *ast.JumpStmt:
		if c.loops == 0 {
			c.diags.Errorf(s.Range, "%s is allowed only inside a loop (for, repeat, while or until)", s.Word())
		}
	}
}

// ifStmt checks each condition and branch. A name declared in a branch is
// visible only inside that branch: after the if, it may not exist.
func (c *checker) ifStmt(s *ast.IfStmt) {
	top := s
	for ; s != nil; s = s.ElseIf {
		if t, _ := c.expr(s.Cond); t.Kind != types.Any && t.Kind != types.Bool {
			c.diags.Errorf(s.Cond.Rng(), "the condition of an if must be true or false (bool), and this is %s; compare it, as in x == \"…\", or test an element with visible(…) or exists(…)", t)
		}
		c.branch(top, s.Then)
		if s.Else != nil {
			c.branch(top, s.Else)
		}
	}
}

func (c *checker) branch(owner ast.Stmt, b *ast.Block) {
	c.fn.push()
	c.block(b, false)
	c.fn.pop(owner)
}

// repeatStmt checks the count, a number, and the body.
func (c *checker) repeatStmt(s *ast.RepeatStmt) {
	t, _ := c.expr(s.Count)
	switch {
	case t.Kind != types.Any && t.Kind != types.Number:
		c.diags.Errorf(s.Count.Rng(), "repeat needs a number of times, and this is %s", t)
	default:
		if n, ok := s.Count.(*ast.NumberLit); ok {
			if v, err := strconv.ParseFloat(n.Raw, 64); err == nil && (v != math.Trunc(v) || v > MaxRepeat) {
				c.diags.Errorf(n.Range, "repeat needs a whole number of times from 0 to %d, not %s", MaxRepeat, n.Raw)
			}
		}
	}
	c.loopBody(s, s.Body)
}

// loopBody checks a repeat's, while's or until's body.
func (c *checker) loopBody(owner ast.Stmt, b *ast.Block) {
	c.loops++
	c.branch(owner, b)
	c.loops--
}

// Bounds of while and until: the iterations and seconds a loop may take
// when it says nothing, and the most it may ask for.
const (
	DefaultLoopMax    = 100
	DefaultLoopWithin = 300
	MaxLoopWithin     = 24 * 3600
)

// whileStmt checks the condition, the options max and within, and the body.
func (c *checker) whileStmt(s *ast.WhileStmt) {
	kw := s.Keyword()
	if t, _ := c.expr(s.Cond); t.Kind != types.Any && t.Kind != types.Bool {
		c.diags.Errorf(s.Cond.Rng(), "the condition of %s must be true or false (bool), and this is %s; compare it, as in x == \"…\", or test an element with visible(…) or exists(…)", kw, t)
	}
	seen := map[string]bool{}
	for _, a := range s.Options {
		if a.Name == nil {
			c.diags.Errorf(a.Range, "after the condition, %s takes only max: N (the most iterations, default %d) and within: SECONDS (default %d)", kw, DefaultLoopMax, DefaultLoopWithin)
			continue
		}
		name := a.Name.Name
		var limit int
		switch name {
		case "max":
			limit = MaxRepeat
		case "within":
			limit = MaxLoopWithin
		default:
			c.diags.Errorf(a.Name.Range, "%s has no option %s; it takes max: N (the most iterations) and within: SECONDS", kw, name)
			continue
		}
		if seen[name] {
			c.diags.Errorf(a.Name.Range, "%s: is given twice", name)
		}
		seen[name] = true
		t, _ := c.expr(a.Value)
		if t.Kind != types.Any && t.Kind != types.Number {
			c.diags.Errorf(a.Value.Rng(), "%s: needs a number, and this is %s", name, t)
			continue
		}
		if n, ok := a.Value.(*ast.NumberLit); ok {
			if v, err := strconv.ParseFloat(n.Raw, 64); err == nil && (v != math.Trunc(v) || v < 1 || v > float64(limit)) {
				c.diags.Errorf(n.Range, "%s: needs a whole number from 1 to %d, not %s", name, limit, n.Raw)
			}
		}
	}
	c.loopBody(s, s.Body)
}

// MaxRepeat is the most times a repeat may run its body; the runtime
// stops a repeat whose count, computed while running, is above it.
const MaxRepeat = 1000

func (c *checker) input(s *ast.InputDecl, top bool) {
	if !top {
		c.diags.Errorf(s.Range, "input %s must be declared at the top of a task, not in a loop or skill", s.Name.Name)
	}
	t := c.resolveType(s.Type)
	switch t.Kind {
	case types.Element, types.Window:
		c.diags.Errorf(s.Type.Range, "an input cannot be of type %s; inputs are values a person gives (text, number, bool, url, key, secret or lists of them)", t)
	}
	if s.Default != nil {
		if secretName(t, symInput, "") != "" {
			c.diags.Errorf(s.Default.Rng(), "secret input %s cannot have a default: the value would sit in the workflow file; pass it with --input-env %s=VAR or --input-file %s=PATH", s.Name.Name, s.Name.Name, s.Name.Name)
		} else {
			dt, _ := c.expr(s.Default)
			if !dt.AssignableTo(t) {
				c.diags.Errorf(s.Default.Rng(), "default value of input %s is %s, not %s", s.Name.Name, dt, t)
			}
		}
	}
	c.fn.declare(c, s.Name, &symbol{kind: symInput, typ: t, decl: s, secret: secretName(t, symInput, s.Name.Name)})
}

// resolveType turns a written type into a language type.
func (c *checker) resolveType(te *ast.TypeExpr) types.Type {
	if te.Name == "list" {
		if te.Elem == nil {
			c.diags.Errorf(te.Range, "list needs an element type, as in list<text>")
			return types.AnyT
		}
		return types.ListOf(c.resolveType(te.Elem))
	}
	t, ok := types.Lookup(te.Name)
	if !ok {
		d := c.diags.Errorf(te.Range, "unknown type %s", te.Name)
		hint(d, te.Name, types.Names())
		return types.AnyT
	}
	if te.Elem != nil {
		c.diags.Errorf(te.Elem.Range, "type %s takes no element type; only list does", te.Name)
	}
	return t
}

func (c *checker) step(s *ast.Step) {
	c.current = s
	t, secret := c.stepValue(s)
	c.current = nil
	c.info.StepTypes[s] = t
	c.fn.declare(c, s.Name, &symbol{kind: symStep, typ: t, decl: s, secret: secret})
}

func (c *checker) forStmt(s *ast.ForStmt) {
	t, secret := c.expr(s.Iter)
	elem := types.AnyT
	switch {
	case t.Kind == types.List && t.Elem != nil:
		elem = *t.Elem
	case t.Kind == types.Any:
	default:
		c.diags.Errorf(s.Iter.Rng(), "for needs a list to iterate over, and this is %s", t)
	}
	c.fn.push()
	c.fn.declare(c, s.Var, &symbol{kind: symLoopVar, typ: elem, decl: s, secret: secret})
	c.loops++
	c.block(s.Body, false)
	c.loops--
	c.fn.pop(s)
}
