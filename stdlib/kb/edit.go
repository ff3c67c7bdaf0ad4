package kb

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/suggest"
	"github.com/cogflow/cogflow/lang/syntax"
)

// The editing API below is how a knowledge base evolves (cogflow reflect
// uses it): every edit validates its input against the same rules Parse
// enforces, so that an edited knowledge base always formats into a file
// that parses. An edit that fails leaves the knowledge base unchanged.

// Clone returns a deep copy of k, so that edits can be tried on the copy and
// thrown away when one of them fails.
func (k *KB) Clone() *KB {
	if k == nil {
		return nil
	}
	out := &KB{Header: slices.Clone(k.Header), Version: k.Version, Irreversible: slices.Clone(k.Irreversible)}
	for _, c := range k.Categories {
		nc := *c
		nc.Comment = slices.Clone(c.Comment)
		nc.Subcategories = nil
		for _, s := range c.Subcategories {
			ns := *s
			ns.Examples = slices.Clone(s.Examples)
			ns.Comment = slices.Clone(s.Comment)
			nc.Subcategories = append(nc.Subcategories, &ns)
		}
		out.Categories = append(out.Categories, &nc)
	}
	for _, r := range k.Rules {
		nr := *r
		nr.Comment = slices.Clone(r.Comment)
		out.Rules = append(out.Rules, &nr)
	}
	return out
}

// mainOrError returns the main category called name, or an error that
// lists the closed set and suggests the nearest name.
func (k *KB) mainOrError(name string) (*Category, error) {
	if c := k.Main(name); c != nil {
		return c, nil
	}
	msg := fmt.Sprintf("%q is not a main category; the main categories are a closed set: %s", name, strings.Join(mainCategories[:], ", "))
	if near := suggest.Closest(name, mainCategories[:], 1); len(near) > 0 {
		msg += fmt.Sprintf(" (did you mean %q?)", near[0])
	}
	return nil, errors.New(msg)
}

// AddSubcategory adds s at the end of the main category main. The name must
// be a new identifier that is not a main category's; the definition one
// non-empty line; the result, when given, a result type; and there must be
// at least two examples, each a dependency on s (see CheckExample).
func (k *KB) AddSubcategory(main string, s *Subcategory) error {
	c, err := k.mainOrError(main)
	if err != nil {
		return err
	}
	if err := checkSubName(s.Name); err != nil {
		return err
	}
	if owner, _, ok := k.Lookup(s.Name); ok {
		return fmt.Errorf("the subcategory %s already exists in %s; subcategory names are unique across the knowledge base", s.Name, owner.Name)
	}
	if s.Result != "" && !IsResultType(s.Result) {
		return fmt.Errorf("the subcategory %s: result %q is not %s, %s or %s", s.Name, s.Result, ResultText, ResultNumber, ResultElement)
	}
	if err := checkEntry(main, s.Name, s.Definition, s.Examples); err != nil {
		return err
	}
	ns := *s
	ns.Examples = slices.Clone(s.Examples)
	if ns.Result == "" {
		ns.Result = c.Result // as Parse resolves it
	}
	c.Subcategories = append(c.Subcategories, &ns)
	return nil
}

// ModifySubcategory replaces the definition and the examples of an existing
// subcategory; name may be qualified with its main category, which must
// then be the subcategory's own (an edit never moves a subcategory). The
// result type and the comment are kept. It returns the modified entry.
func (k *KB) ModifySubcategory(name, definition string, examples []string) (*Subcategory, error) {
	main, sub := splitQualified(name)
	if main != "" {
		if _, err := k.mainOrError(main); err != nil {
			return nil, err
		}
	}
	c, s, ok := k.Lookup(sub)
	switch {
	case !ok:
		msg := fmt.Sprintf("there is no subcategory %s to modify", sub)
		if near := k.Closest(sub, 1); len(near) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", near[0])
		}
		return nil, errors.New(msg)
	case main != "" && main != c.Name:
		return nil, fmt.Errorf("the subcategory %s belongs to %s, not %s; a subcategory cannot move to another main category", sub, c.Name, main)
	}
	if err := checkEntry(c.Name, sub, definition, examples); err != nil {
		return nil, err
	}
	s.Definition = definition
	s.Examples = slices.Clone(examples)
	return s, nil
}

// AddRule appends a rule with the next free number (one more than the
// highest, so a retired number is never reused) and returns it.
func (k *KB) AddRule(text string) (*Rule, error) {
	if err := checkLine("the rule", text); err != nil {
		return nil, err
	}
	next := 1
	for _, r := range k.Rules {
		if n, err := strconv.Atoi(r.ID); err == nil && n >= next {
			next = n + 1
		}
	}
	r := &Rule{ID: strconv.Itoa(next), Text: text}
	k.Rules = append(k.Rules, r)
	return r, nil
}

// ModifyRule replaces the text of the rule numbered id and returns it.
func (k *KB) ModifyRule(id, text string) (*Rule, error) {
	if !ruleIDRE.MatchString(id) {
		return nil, fmt.Errorf("%q is not a rule number", id)
	}
	if err := checkLine("rule "+id, text); err != nil {
		return nil, err
	}
	for _, r := range k.Rules {
		if r.ID == id {
			r.Text = text
			return r, nil
		}
	}
	return nil, fmt.Errorf("there is no rule %s (the rules are numbered %s)", id, k.ruleRange())
}

// Rule returns the rule numbered id, or nil.
func (k *KB) Rule(id string) *Rule {
	if k == nil {
		return nil
	}
	for _, r := range k.Rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// ruleRange describes the rule numbers for error messages, e.g. "1 to 14".
func (k *KB) ruleRange() string {
	if len(k.Rules) == 0 {
		return "none: there are no rules"
	}
	return k.Rules[0].ID + " to " + k.Rules[len(k.Rules)-1].ID
}

// Validate formats k and parses the result back, returning the errors the
// written file would have, so that a caller never writes a file that the
// next compile cannot read.
func (k *KB) Validate() error {
	back, diags := Parse(k.Format(), "knowledge.hcl")
	if err := diags.Err(); err != nil {
		return err
	}
	var names []string
	for _, c := range back.Categories {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, mainCategories[:]) {
		return fmt.Errorf("the main categories are %s, not the closed set %s", strings.Join(names, ", "), strings.Join(mainCategories[:], ", "))
	}
	return nil
}

// checkSubName checks a new subcategory's name.
func checkSubName(name string) error {
	switch {
	case !identRE.MatchString(name):
		return fmt.Errorf("%q is not a valid subcategory name: use letters, digits and underscores, such as compare_prices", name)
	case isMainName(name):
		return fmt.Errorf("%q is a main category, not a subcategory name; the main categories are a closed set", name)
	}
	return nil
}

// checkEntry checks a subcategory's definition and examples.
func checkEntry(main, sub, definition string, examples []string) error {
	if err := checkLine("the definition of "+sub, definition); err != nil {
		return err
	}
	if len(examples) < 2 {
		return fmt.Errorf("the subcategory %s needs at least 2 examples, got %d", sub, len(examples))
	}
	for i, ex := range examples {
		if slices.Contains(examples[:i], ex) {
			return fmt.Errorf("the subcategory %s: example %d repeats example %d", sub, i+1, slices.Index(examples, ex)+1)
		}
		if err := CheckExample(main, sub, ex); err != nil {
			return fmt.Errorf("the subcategory %s: example %d: %w", sub, i+1, err)
		}
	}
	return nil
}

// checkLine checks that a text is one non-empty line.
func checkLine(what, text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return fmt.Errorf("%s is empty", what)
	case strings.ContainsAny(text, "\r\n"):
		return fmt.Errorf("%s must be one line", what)
	}
	return nil
}

// examplePrefix wraps an example into a workflow so that the language's own
// parser reads it; the example must then be the call's only argument.
const examplePrefix = "task example {\n  op = use("

// CheckExample reports whether example is written as a workflow would
// write a dependency on the subcategory sub of main category main:
// [main.]sub<"description">(inputs), one expression, parsed by the
// language's parser, with a non-empty description.
func CheckExample(main, sub, example string) error {
	want := fmt.Sprintf(`%s<"description">(inputs) or %s.%s<"description">(inputs)`, sub, main, sub)
	if strings.ContainsAny(example, "\r\n") {
		return fmt.Errorf("%q is not one line; write it as %s", example, want)
	}
	src := examplePrefix + example + ")\n}\n"
	f, diags := syntax.Parse("example", []byte(src))
	if diags.HasErrors() || f == nil || len(f.Decls) != 1 {
		return fmt.Errorf("%q does not parse as a dependency; write it as %s", example, want)
	}
	d := onlyDependency(f)
	if d == nil || d.Range.Start.Offset != len(examplePrefix) || d.Range.End.Offset != len(examplePrefix)+len(example) {
		return fmt.Errorf("%q is not one dependency; write it as %s", example, want)
	}
	switch {
	case d.Sub.Name != sub:
		return fmt.Errorf("%q is a dependency on %s, not on %s", example, d.Sub.Name, sub)
	case d.Main != nil && d.Main.Name != main:
		return fmt.Errorf("%q qualifies %s with %s, but it belongs to %s", example, sub, d.Main.Name, main)
	case d.Description == nil || strings.TrimSpace(d.Description.Value) == "":
		return fmt.Errorf("%q has no description; write it as %s", example, want)
	}
	return nil
}

// onlyDependency returns the dependency that is the only argument of the
// only step of f, or nil.
func onlyDependency(f *ast.File) *ast.Dependency {
	task, ok := f.Decls[0].(*ast.Task)
	if !ok || len(task.Body.Stmts) != 1 {
		return nil
	}
	step, ok := task.Body.Stmts[0].(*ast.Step)
	if !ok {
		return nil
	}
	call, ok := step.Value.(*ast.Call)
	if !ok || len(call.Args) != 1 || call.Args[0].Name != nil {
		return nil
	}
	d, _ := call.Args[0].Value.(*ast.Dependency)
	return d
}
