package runtime

import (
	"fmt"
	"net"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/internal/origin"
	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
)

// The URL policy. A URL a person wrote — a literal of the workflow, an
// input's value, an answer typed at --ask — is opened as it is. A URL that
// came from a model's answer or from the page (a step's result, an
// element's text, a cached answer) is data an attacker may have chosen:
// it may only be http(s), and only on an origin the workflow visits or
// names (the origins of its literal URLs and of its inputs' values), or
// one the configuration allows (cogflow.hcl: urls { allow = [...] }).
// Without this a page could say "open javascript:…" or "open
// file:///etc/passwd" to the model, and the file's text would go to the
// model with the next screen.

// urlActions are the actions whose url argument is checked.
var urlActions = map[action.Name]bool{action.Open: true, action.NewTab: true}

// urlPolicy is the set of origins a URL that nobody wrote may go to.
type urlPolicy struct {
	origins map[string]bool // "https://example.com:443"
	suffix  []string        // "https://.example.com:443" for *.example.com
	any     bool            // the allow list has "*"
	// calls lists each skill's calls, for the origin of its parameters
	// (paramOrigin); built at the first parameter asked about.
	calls map[string][]*ast.Call
}

// checkURLArg refuses to open a URL that came from a model or the page
// when it is not http(s) or not on an allowed origin.
func (in *Interp) checkURLArg(action *check.Action, param string, e ast.Expr, v cty.Value) error {
	if !urlActions[action.Name] || param != "url" || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return nil
	}
	from := in.untrusted(e, map[ast.Node]bool{})
	if from == "" {
		return nil
	}
	if in.urls == nil {
		in.urls = in.newURLPolicy()
	}
	return in.urls.check(v.AsString(), from)
}

// check says why raw may not be opened, or nil.
func (p *urlPolicy) check(raw, from string) error {
	shown := fmt.Sprintf("%q", truncate(raw, 80))
	o, err := origin.Of(raw)
	if err != nil {
		return fmt.Errorf("refused to open %s, which came from %s: %v; a URL that the workflow or its inputs do not give must be http:// or https://",
			shown, from, err)
	}
	if p.allows(o) {
		return nil
	}
	return fmt.Errorf("refused to open %s, which came from %s: the origin %s is not one the workflow visits or names; "+
		"to allow it, name it in the workflow (for instance as an input's default) or add it to cogflow.hcl: urls { allow = [%q] }",
		shown, from, o, o)
}

// allows reports whether an origin (origin.Of's form) is named or allowed.
func (p *urlPolicy) allows(origin string) bool {
	if p.any || p.origins[origin] {
		return true
	}
	// *.example.com: the origin's host ends in .example.com, same scheme
	// and port.
	scheme, rest, _ := strings.Cut(origin, "://")
	host, port, _ := net.SplitHostPort(rest)
	for _, s := range p.suffix {
		sScheme, sRest, _ := strings.Cut(s, "://")
		sHost, sPort, _ := net.SplitHostPort(sRest)
		if scheme == sScheme && port == sPort && strings.HasSuffix(host, sHost) {
			return true
		}
	}
	return false
}

// newURLPolicy gathers the origins the workflow names (its literals, in
// the task and every skill, and its inputs' values) and the configured
// allow list.
func (in *Interp) newURLPolicy() *urlPolicy {
	p := &urlPolicy{origins: map[string]bool{}}
	for _, a := range in.opts.AllowOrigins {
		p.add(a)
	}
	for _, text := range in.namedTexts() {
		if o, err := origin.Of(strings.TrimSpace(text)); err == nil {
			p.origins[o] = true
		}
	}
	return p
}

// add adds one allow-list entry: "*", an origin, or *.domain.
func (p *urlPolicy) add(entry string) {
	if entry == "*" {
		p.any = true
		return
	}
	if scheme, rest, ok := strings.Cut(entry, "://*."); ok {
		if o, err := origin.Of(scheme + "://" + rest); err == nil {
			s, r, _ := strings.Cut(o, "://")
			p.suffix = append(p.suffix, s+"://."+r)
		}
		return
	}
	if o, err := origin.Of(entry); err == nil {
		p.origins[o] = true
	}
}

// namedTexts lists the texts the workflow names: its string literals and
// its inputs' values, secrets excepted.
func (in *Interp) namedTexts() []string {
	var out []string
	lit := func(e ast.Expr) bool {
		if s, ok := e.(*ast.StringLit); ok {
			out = append(out, s.Value)
		}
		return true
	}
	walkExprs(in.task.Body, lit)
	for _, s := range in.skills {
		walkExprs(s.Body, lit)
	}
	for _, s := range in.task.Body.Stmts {
		if d, ok := s.(*ast.InputDecl); ok && !isSecret(typeOf(d.Type)) {
			if v, ok := in.get(d.Name.Name); ok {
				out = append(out, textsOf(v)...)
			}
		}
	}
	return out
}

// walkExprs calls fn for every expression of the block's statements.
func walkExprs(b *ast.Block, fn func(ast.Expr) bool) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ast.InputDecl:
			ast.Inspect(s.Default, fn)
		case *ast.AnchorDecl:
			ast.Inspect(s.Value, fn)
		case *ast.Step:
			ast.Inspect(s.Value, fn)
		case *ast.ForStmt:
			ast.Inspect(s.Iter, fn)
			walkExprs(s.Body, fn)
		case *ast.RepeatStmt:
			ast.Inspect(s.Count, fn)
			walkExprs(s.Body, fn)
		case *ast.WhileStmt:
			ast.Inspect(s.Cond, fn)
			for _, a := range s.Options {
				ast.Inspect(a.Value, fn)
			}
			walkExprs(s.Body, fn)
		case *ast.IfStmt:
			for c := s; c != nil; c = c.ElseIf {
				ast.Inspect(c.Cond, fn)
			}
			for _, b := range ast.Bodies(s) {
				walkExprs(b, fn)
			}
		case *ast.TryStmt, *ast.ExploreStmt:
			for _, b := range ast.Bodies(s) {
				walkExprs(b, fn)
			}
		}
	}
}

// untrusted says where e's value comes from when no person wrote it — "a
// model's answer", "the page" — or "" for literals, inputs and answers
// typed at --ask. seen stops the walk through recursive skills.
func (in *Interp) untrusted(e ast.Expr, seen map[ast.Node]bool) string {
	switch e := e.(type) {
	case nil, *ast.StringLit, *ast.NumberLit, *ast.BoolLit:
		return ""
	case *ast.Ref:
		return in.refOrigin(e, seen)
	case *ast.Dependency:
		switch src := in.lastSource[e]; src {
		case "ask":
			return ""
		case "llm", "cache":
			return fmt.Sprintf("a model's answer (%s<%q>)", e.Sub.Name, truncate(e.Description.Value, 40))
		default:
			return fmt.Sprintf("the page (%s<%q>, answered by %s)", e.Sub.Name, truncate(e.Description.Value, 40), src)
		}
	case *ast.Call:
		if n := e.CalleeName(); check.ElementRoles[n] && !isFunction(in.fns, n) {
			return "the page (an element)"
		}
	}
	// Anything else is computed from its parts: untrusted when one is.
	var from string
	ast.Inspect(e, func(x ast.Expr) bool {
		if from != "" {
			return false
		}
		if x == e {
			return true
		}
		from = in.untrusted(x, seen)
		return false
	})
	return from
}

// refOrigin is untrusted for a name: inputs are written by a person, loop
// variables are as trusted as what they loop over, a skill's parameter as
// the arguments of every call of the skill, and step results and anchors
// come from the page.
func (in *Interp) refOrigin(r *ast.Ref, seen map[ast.Node]bool) string {
	decl := in.info.Refs[r]
	if decl == nil || seen[decl] {
		return ""
	}
	seen[decl] = true
	switch d := decl.(type) {
	case *ast.InputDecl:
		if _, given := in.opts.Inputs[d.Name.Name]; given {
			return ""
		}
		return in.untrusted(d.Default, seen)
	case *ast.ForStmt:
		return in.untrusted(d.Iter, seen)
	case *ast.Step:
		return "the page (the result of step " + d.Name.Name + ")"
	case *ast.AnchorDecl:
		return "the page (anchor " + d.Name.Name + ")"
	case *ast.Param:
		return in.paramOrigin(d, seen)
	}
	return "an unknown source"
}

// paramOrigin checks a skill parameter's argument at every call.
func (in *Interp) paramOrigin(p *ast.Param, seen map[ast.Node]bool) string {
	if in.urls == nil {
		in.urls = in.newURLPolicy()
	}
	if in.urls.calls == nil {
		in.urls.calls = map[string][]*ast.Call{}
		collect := func(e ast.Expr) bool {
			if c, ok := e.(*ast.Call); ok && in.skills[c.CalleeName()] != nil {
				in.urls.calls[c.CalleeName()] = append(in.urls.calls[c.CalleeName()], c)
			}
			return true
		}
		walkExprs(in.task.Body, collect)
		names := make([]string, 0, len(in.skills))
		for n := range in.skills {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			walkExprs(in.skills[n].Body, collect)
		}
	}
	for name, skill := range in.skills {
		for i, q := range skill.Params {
			if q != p {
				continue
			}
			for _, c := range in.urls.calls[name] {
				for j, a := range c.Args {
					if (a.Name == nil && j == i) || (a.Name != nil && a.Name.Name == p.Name.Name) {
						if from := in.untrusted(a.Value, seen); from != "" {
							return from
						}
					}
				}
			}
		}
	}
	return ""
}
