package discover

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime/redact"
	"github.com/cogflow/cogflow/stdlib/kb"
	"github.com/cogflow/cogflow/stdlib/skills"
)

// MinSets is the fewest parameter sets a proposal must bring: the dynamic
// validation runs the skill once per set (AXIS generates several).
const MinSets = 3

// MaxSets is the most parameter sets a proposal may bring: each is a run
// of up to RunTimeout per body, so a reply with hundreds would keep the
// validation going for hours.
const MaxSets = 10

// paramTypes are the types a skill parameter of a discovered skill may
// have: the ones a generated value can stand for.
var paramTypes = []string{"text", "number", "bool", "url", "secret"}

var identifier = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// Body kinds: the UI steps, or their API translation.
const (
	BodySteps = "steps"
	BodyAPI   = "api"
)

// Body is one form of a skill: its declaration in canonical layout.
type Body struct {
	Kind   string // BodySteps or BodyAPI
	Source string // `skill NAME(…) { … }`, printed by lang/printer
}

// Candidate is a proposal that passed static validation, ready to run.
type Candidate struct {
	Proposal
	// Driver runs the skill: the driver of the validation task.
	Driver string
	// Sets are the parameter sets as input texts.
	Sets []map[string]string
	// Bodies are the UI steps, then the API translation when there is one.
	Bodies []Body
	// Keeps is, for a stored skill, the form its file holds: a validation
	// that would keep another one fails (the file is not rewritten).
	Keeps string
}

// secret reports whether the parameter name is a secret.
func (c *Candidate) secret(name string) bool {
	return slices.ContainsFunc(c.Params, func(p Param) bool { return p.Name == name && p.Type == "secret" })
}

// Static validates a proposal without running it: its name, effect,
// parameters and parameter sets; its final state's placeholders; its
// steps and API translation parse and check (the checker's diagnostics,
// file:line:col, are the reasons) and declare exactly the proposal's
// signature; and the validation task built from it, run by driverName,
// checks. k is the knowledge base the checker uses (nil: the default).
func Static(p Proposal, driverName string, k *kb.KB) (*Candidate, []string) {
	var why []string
	bad := func(format string, args ...any) { why = append(why, fmt.Sprintf(format, args...)) }
	switch {
	case !identifier.MatchString(p.Name):
		bad("name %q is not a name of the language (lower-case letters, digits, _)", p.Name)
	case check.Actions[p.Name] != nil:
		bad("name %q is an action's name", p.Name)
	case syntax.Keywords[p.Name]:
		bad("name %q is a keyword", p.Name)
	case skills.Stdlib().Lookup(driverName, p.Name) != nil:
		// A project's skill would hide it from every task of the project.
		bad("name %q is a skill the %s driver ships; a discovered skill may not hide it", p.Name, driverName)
	}
	if strings.TrimSpace(p.Description) == "" || strings.Contains(p.Description, "\n") {
		bad("description must be one sentence on one line")
	}
	if p.Effect != ReadOnly && p.Effect != Mutating {
		bad("effect must be %q or %q, not %q", ReadOnly, Mutating, p.Effect)
	}
	seen := map[string]bool{}
	for i, prm := range p.Params {
		switch {
		case !identifier.MatchString(prm.Name) || syntax.Keywords[prm.Name]:
			bad("params[%d]: %q is not a parameter name", i, prm.Name)
		case seen[prm.Name]:
			bad("params[%d]: %q is declared twice", i, prm.Name)
		case !slices.Contains(paramTypes, prm.Type):
			bad("params[%d]: type %q is not one of %s", i, prm.Type, strings.Join(paramTypes, ", "))
		}
		seen[prm.Name] = true
	}
	c := &Candidate{Proposal: p, Driver: driverName}
	c.Sets, why = sets(p, why)
	why = append(why, finalStateErrors(c)...)
	// Before anything parses: a diagnostic may quote the secret.
	why = append(why, secretErrors(c)...)
	if len(why) > 0 {
		return nil, why
	}
	for _, b := range []Body{{BodySteps, p.Steps}, {BodyAPI, p.API}} {
		if b.Kind == BodyAPI && strings.TrimSpace(b.Source) == "" {
			continue // no API translation: the UI steps alone
		}
		// Positions name the body they are in.
		src, errs := checkBody(p, driverName, p.Name+"."+b.Kind+".cog", b.Source, k)
		if len(errs) > 0 {
			why = append(why, errs...)
			continue
		}
		c.Bodies = append(c.Bodies, Body{Kind: b.Kind, Source: src})
	}
	if len(why) > 0 {
		return nil, why
	}
	// The task that runs the skill, with the first set's values in its
	// checks: an element description of the final state that does not
	// check is caught here, before anything runs. The bodies passed their
	// own check, so one task says it for both.
	f, ds := syntax.Parse(c.Name+".validate.cog", []byte(validationTask(c, c.Bodies[0], c.Sets[0])))
	if !ds.HasErrors() {
		_, more := check.Check(f, kb.CheckEnv(k))
		ds = append(ds, more...)
	}
	for _, d := range diagLines(ds) {
		why = append(why, "final_state: "+d)
	}
	if len(why) > 0 {
		return nil, why
	}
	return c, nil
}

// sets checks the parameter sets and returns them as input texts.
func sets(p Proposal, why []string) ([]map[string]string, []string) {
	if len(p.ParameterSets) < MinSets {
		return nil, append(why, fmt.Sprintf("parameter_sets: %d given, at least %d needed", len(p.ParameterSets), MinSets))
	}
	if len(p.ParameterSets) > MaxSets {
		return nil, append(why, fmt.Sprintf("parameter_sets: %d given, at most %d are run", len(p.ParameterSets), MaxSets))
	}
	var out []map[string]string
	distinct := map[string]bool{}
	for i, set := range p.ParameterSets {
		vals := map[string]string{}
		for _, prm := range p.Params {
			raw, ok := set[prm.Name]
			if !ok {
				why = append(why, fmt.Sprintf("parameter_sets[%d]: no value for %q", i, prm.Name))
				continue
			}
			v, ok := valueText(raw)
			if !ok {
				why = append(why, fmt.Sprintf("parameter_sets[%d].%s: a value must be a string, number or boolean", i, prm.Name))
				continue
			}
			if err := typed(prm.Type, v); err != nil {
				why = append(why, fmt.Sprintf("parameter_sets[%d].%s: %v", i, prm.Name, err))
			}
			vals[prm.Name] = v
		}
		for name := range set {
			if !slices.ContainsFunc(p.Params, func(prm Param) bool { return prm.Name == name }) {
				why = append(why, fmt.Sprintf("parameter_sets[%d]: %q is not a parameter", i, name))
			}
		}
		distinct[fmt.Sprint(vals)] = true
		out = append(out, vals)
	}
	if len(distinct) < MinSets {
		why = append(why, fmt.Sprintf("parameter_sets: only %d distinct sets, at least %d needed", len(distinct), MinSets))
	}
	return out, why
}

// typed checks that a value suits a parameter's type.
func typed(typ, v string) error {
	switch typ {
	case "number":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return fmt.Errorf("%q is not a number", v)
		}
	case "bool":
		if v != "true" && v != "false" {
			return fmt.Errorf("%q is not true or false", v)
		}
	case "url":
		if u, err := url.Parse(v); err != nil || u.Scheme == "" || u.Host == "" {
			return fmt.Errorf("%q is not an absolute address", v)
		}
	}
	return nil
}

// finalStateErrors checks the predicate's placeholders, and that each
// check given can fail: a blank text or element holds on every screen.
func finalStateErrors(c *Candidate) []string {
	var why []string
	f := c.FinalState
	if f.empty() {
		return []string{"final_state: checks nothing (give url_contains, shows or elements)"}
	}
	if f.URLContains != "" && strings.TrimSpace(f.URLContains) == "" {
		why = append(why, "final_state.url_contains: is blank, so every address contains it")
	}
	for _, l := range []struct {
		field string
		list  []string
	}{{"shows", f.Shows}, {"elements", f.Elements}} {
		for i, s := range l.list {
			if strings.TrimSpace(s) == "" {
				why = append(why, fmt.Sprintf("final_state.%s[%d]: is empty, so it holds on every screen", l.field, i))
			}
		}
	}
	all := append([]string{f.URLContains}, append(f.Shows, f.Elements...)...)
	for _, s := range all {
		for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
			switch {
			case !slices.ContainsFunc(c.Params, func(p Param) bool { return p.Name == m[1] }):
				why = append(why, fmt.Sprintf("final_state: {%s} is not a parameter", m[1]))
			case c.secret(m[1]):
				why = append(why, fmt.Sprintf("final_state: {%s} is a secret parameter; a check is written down, a secret never is", m[1]))
			}
		}
	}
	return why
}

// secretErrors finds a secret parameter's generated value written where
// it would be stored or shown: the name, description, steps, API
// translation, final state, or another parameter's value (the sidecar
// keeps those). The reasons name the parameter, never the value.
func secretErrors(c *Candidate) []string {
	var why []string
	fs := c.FinalState
	texts := []struct{ where, text string }{{"name", c.Name}, {"description", c.Description}, {"steps", c.Steps},
		{"api", c.API}, {"final_state", strings.Join(append(append([]string{fs.URLContains}, fs.Shows...), fs.Elements...), "\x00")}}
	for i, set := range c.Sets {
		for _, p := range c.Params {
			if !c.secret(p.Name) {
				texts = append(texts, struct{ where, text string }{fmt.Sprintf("parameter_sets[%d].%s", i, p.Name), set[p.Name]})
			}
		}
	}
	found := map[string]bool{}
	for i, set := range c.Sets {
		for _, p := range c.Params {
			v := set[p.Name]
			if !c.secret(p.Name) || v == "" {
				continue
			}
			// A shorter one would be found in every step name (s12).
			if utf8.RuneCountInString(v) < redact.MinDerived {
				why = append(why, fmt.Sprintf("parameter_sets[%d].%s: a secret's value must have at least %d characters", i, p.Name, redact.MinDerived))
				continue
			}
			for _, t := range texts {
				key := t.where + "\x00" + p.Name
				if !found[key] && strings.Contains(t.text, v) {
					found[key] = true
					why = append(why, fmt.Sprintf("%s: holds the value of the secret parameter %q; a secret is never written down (use the parameter)", t.where, p.Name))
				}
			}
		}
	}
	return why
}

// checkBody parses and checks a file that must hold one skill
// declaration, run by driver drv, and compares its signature with the
// proposal's; it returns the declaration in canonical layout.
func checkBody(p Proposal, drv, name, src string, k *kb.KB) (string, []string) {
	f, ds := syntax.Parse(name, []byte(src))
	if ds.HasErrors() {
		return "", diagLines(ds)
	}
	if len(f.Decls) != 1 {
		return "", []string{fmt.Sprintf("%s: holds %d declarations; give exactly one skill", name, len(f.Decls))}
	}
	s, ok := f.Decls[0].(*ast.Skill)
	if !ok {
		return "", []string{fmt.Sprintf("%s: is not a skill declaration", name)}
	}
	if why := signature(s, p.Name, p.Params); why != "" {
		return "", []string{fmt.Sprintf("%s: %s", s.Range, why)}
	}
	// A skill runs with the driver of the task that calls it, and only
	// then may it call that driver's library skills: checked under a task
	// of the driver, appended so that the skill's positions stay.
	withTask := src + "\n\ntask discover_check \"check the skill\" {\n  driver " + drv + "\n}\n"
	ft, ds := syntax.Parse(name, []byte(withTask))
	if !ds.HasErrors() {
		_, ds = check.Check(ft, kb.CheckEnv(k))
	}
	if ds.HasErrors() {
		return "", diagLines(ds)
	}
	return strings.TrimSpace(string(printer.Format(f))), nil
}

// signature compares a declaration with the name and parameters a
// proposal gives; "" when they agree.
func signature(s *ast.Skill, name string, params []Param) string {
	if s.Name.Name != name {
		return fmt.Sprintf("the skill is named %q, the proposal %q", s.Name.Name, name)
	}
	var decl, want []string
	for _, p := range s.Params {
		decl = append(decl, p.Name.Name+": "+p.Type.String())
	}
	for _, p := range params {
		want = append(want, p.Name+": "+p.Type)
	}
	if !slices.Equal(decl, want) {
		return fmt.Sprintf("the skill declares (%s), the proposal's params are (%s)", strings.Join(decl, ", "), strings.Join(want, ", "))
	}
	return ""
}

// diagLines are the errors of ds, each file:line:col: message.
func diagLines(ds diag.List) []string {
	var out []string
	for _, d := range ds.Errors() {
		out = append(out, d.Error())
	}
	return out
}
