package compiler

import (
	"net/url"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// The GET-form rule of the api-first stage: typing a value into a field of
// a GET form and submitting it (a click on its submit button, or Enter)
// is, when nothing else takes part in the submission, opening the form's
// address with field=value as its query. The proof is the demonstration's
// own: the recorder's form facts on the typed field (runtime/trace
// FormInfo: a GET form, no hidden input, no other field with a value, no
// script handling the submission, checked) and the navigation the submit
// caused, which must be exactly that address. Anything less keeps the UI
// steps.

func init() {
	apiRewrites = append(apiRewrites, apiRewrite{name: "get-form", run: (*compiler).getForms})
}

// formSubmit is one proven type-and-submit pair of steps.
type formSubmit struct {
	typed, submit *ast.Step
	value         ast.Expr // the typed value: an input, a step, a literal
	base, field   string   // the form's address without query, the field's name
	cites         []string // the two steps' events
}

// getForms rewrites every proven pair, in every block of every task.
func (c *compiler) getForms(f *ast.File) {
	for _, d := range f.Decls {
		t, ok := d.(*ast.Task)
		if !ok {
			continue
		}
		var blocks func(b *ast.Block)
		blocks = func(b *ast.Block) {
			c.getFormsIn(t, b)
			for _, s := range b.Stmts {
				for _, in := range ast.Bodies(s) {
					blocks(in)
				}
			}
		}
		blocks(t.Body)
	}
}

// getFormsIn rewrites the proven pairs of adjacent steps of one block.
func (c *compiler) getFormsIn(t *ast.Task, b *ast.Block) {
	byName := map[string]*info{}
	for _, in := range c.infos {
		byName[in.name] = in
	}
	for i := 0; i+1 < len(b.Stmts); i++ {
		s1, ok1 := b.Stmts[i].(*ast.Step)
		s2, ok2 := b.Stmts[i+1].(*ast.Step)
		if !ok1 || !ok2 {
			continue
		}
		fs := c.provenSubmit(byName[s1.Name.Name], byName[s2.Name.Name], s1, s2)
		if fs == nil || !c.canReplace(t, fs) {
			continue
		}
		used := anchorsOf(s1, s2)
		next := c.openStep(t, fs)
		b.Stmts = append(append(b.Stmts[:i:i], next), b.Stmts[i+2:]...)
		c.dropUnusedAnchors(t, used)
	}
}

// provenSubmit returns the pair s1 (type) and s2 (click or Enter) when the
// demonstration proves them equal to opening one address; nil otherwise.
func (c *compiler) provenSubmit(in1, in2 *info, s1, s2 *ast.Step) *formSubmit {
	if in1 == nil || in2 == nil || in1.Action != action.Type || s1.Confirm || s2.Confirm {
		return nil
	}
	typeCall, ok := s1.Value.(*ast.Call)
	if !ok || typeCall.CalleeName() != string(action.Type) || len(typeCall.Args) != 2 || typeCall.Args[1].Name != nil {
		return nil
	}
	value := typeCall.Args[1].Value
	switch value.(type) {
	case *ast.Ref, *ast.StringLit:
	default:
		return nil // a computed value: the rule keeps to what it can carry over
	}
	if in1.Target == nil || in1.Target.Secret || c.isSecretExpr(value) {
		return nil // a secret never goes into an address (history, logs)
	}
	form := c.typedForm(in1)
	if form == nil || form.Method != "get" || form.Field == "" || form.Hidden != 0 || len(form.Filled) != 0 ||
		(form.Script != trace.FormScriptNone && form.Script != trace.FormScriptUnknown) || !utf8Form(form) {
		return nil
	}
	if !c.submitsForm(in1, in2, s2, form) {
		return nil
	}
	base, ok := formBase(form.Action)
	if !ok || !c.navigatedTo(in2, base, form.Field, in1.Text) {
		return nil
	}
	if form.Script == trace.FormScriptUnknown {
		// Everything else is proven: say why the UI steps stay.
		c.warnStep(s1.Name.Name, "api-first: %s and %s kept: the recorder could not check whether a script handles the form's submission",
			s1.Name.Name, s2.Name.Name)
		return nil
	}
	return &formSubmit{typed: s1, submit: s2, value: value, base: base, field: form.Field,
		cites: append(append([]string(nil), in1.Events...), in2.Events...)}
}

// typedForm is the form facts of the typed field as of the last event that
// changed it (the state the submission saw). The script check is the
// recorder's through the DevTools protocol, which an event during the
// submission (the change Enter commits) may no longer get ("unknown"): a
// check that found a script wins; else one that answered "none" suffices.
func (c *compiler) typedForm(in *info) *trace.FormInfo {
	var last *trace.FormInfo
	script := ""
	for _, id := range in.Events {
		e := c.tr.Event(id)
		if e == nil || e.Target == nil || e.Snapshot == "" || (e.Kind != trace.KindInput && e.Kind != trace.KindChange && e.Kind != trace.KindPaste) {
			continue
		}
		if fieldKey(e.Target) != fieldKey(in.Target) {
			continue
		}
		f := formAt(c.tr, e)
		if f == nil {
			return nil // the field left its form, or facts are missing: no proof
		}
		switch {
		case f.Script == trace.FormScriptOnsubmit || f.Script == trace.FormScriptListener:
			script = f.Script
		case f.Script == trace.FormScriptNone && script == "":
			script = f.Script
		}
		last = f
	}
	if last == nil {
		return nil
	}
	if script == "" {
		script = trace.FormScriptUnknown // no check answered
	}
	out := *last
	out.Script = script
	return &out
}

// formAt is the form facts of an event's target in its snapshot.
func formAt(tr *trace.Trace, e *trace.Event) *trace.FormInfo {
	s, ok := tr.Snapshots[e.Snapshot]
	if !ok || e.Target == nil {
		return nil
	}
	if el := s.ByRef(e.Target.Ref); el != nil {
		return el.Form
	}
	return nil
}

// submitsForm reports whether s2 submits the typed field's form and does
// nothing else: Enter in the field, or a click on an unnamed submit
// button of the same form (a named one adds itself to the query); no
// dialog answered, no tab opened.
func (c *compiler) submitsForm(in1, in2 *info, s2 *ast.Step, form *trace.FormInfo) bool {
	cl, ok := s2.Value.(*ast.Call)
	if !ok {
		return false
	}
	for _, a := range cl.Args {
		if a.Name != nil {
			return false // dialog:, button:, timeout: — more than a submission
		}
	}
	for _, id := range in2.Events {
		if e := c.tr.Event(id); e == nil || e.Kind == trace.KindTabOpen || e.Kind == trace.KindDialog {
			return false
		}
	}
	switch in2.Action {
	case action.Enter:
		return in2.Target == nil || fieldKey(in2.Target) == fieldKey(in1.Target)
	case action.Click:
		for _, id := range in2.Events {
			e := c.tr.Event(id)
			if e == nil || e.Kind != trace.KindClick || e.Cause != "" {
				continue
			}
			// The button's own script check may be "unknown" (the page was
			// leaving): the field's form was checked; a script found wins.
			bf := formAt(c.tr, e)
			return bf != nil && bf.Action == form.Action && bf.Method == form.Method && bf.Field == "" &&
				bf.Hidden == 0 && (bf.Script == trace.FormScriptNone || bf.Script == trace.FormScriptUnknown) &&
				onlyField(bf.Filled, form.Field)
		}
	}
	return false
}

// onlyField reports whether the names are at most the typed field's.
func onlyField(names []string, field string) bool {
	for _, n := range names {
		if n != field {
			return false
		}
	}
	return true
}

// formBase is the address a GET form submits to without its query and
// fragment (submitting replaces the query); only http and https.
func formBase(action string) (string, bool) {
	u, err := url.Parse(action)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", false
	}
	u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = "", "", "", false
	return u.String(), true
}

// navigatedTo reports whether the first navigation s2's events caused is
// exactly base?field=value: the same address, one query parameter, the
// typed value (compared decoded: the server sees the same).
func (c *compiler) navigatedTo(in2 *info, base, field, value string) bool {
	mine := map[string]bool{}
	for _, id := range in2.Events {
		mine[id] = true
	}
	for _, id := range in2.Events {
		e := c.tr.Event(id)
		if e == nil || e.Kind != trace.KindNavigate {
			continue
		}
		if !mine[e.Cause] {
			return false
		}
		u, err := url.Parse(e.URL)
		if err != nil || u.Fragment != "" {
			return false
		}
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil || len(q) != 1 || len(q[field]) != 1 || q[field][0] != value {
			return false
		}
		u.RawQuery, u.ForceQuery = "", false
		return u.String() == base
	}
	return false
}

// isSecretExpr reports whether the value is a secret input.
func (c *compiler) isSecretExpr(e ast.Expr) bool {
	r, ok := e.(*ast.Ref)
	if !ok {
		return false
	}
	for _, d := range c.inputs {
		if d.Name.Name == r.Name && d.Type != nil && d.Type.Name == "secret" {
			return true
		}
	}
	return false
}

// canReplace reports whether the pair's results can go: the submit step's
// result is used nowhere, and the typed step's (the text typed) only
// where its value, an input or a step, can stand in for it.
func (c *compiler) canReplace(t *ast.Task, fs *formSubmit) bool {
	_, isRef := fs.value.(*ast.Ref)
	ok := true
	walkTaskExprs(t.Body, func(e ast.Expr) {
		if r, is := e.(*ast.Ref); is && (r.Name == fs.submit.Name.Name || r.Name == fs.typed.Name.Name && !isRef) {
			ok = false
		}
	}, fs.typed, fs.submit)
	return ok
}

// openStep is the step that replaces the pair: open(<base>?field=urlquery(value)),
// named as the typed step was, whose later uses now read the value itself.
func (c *compiler) openStep(t *ast.Task, fs *formSubmit) *ast.Step {
	if r, ok := fs.value.(*ast.Ref); ok {
		walkTaskExprs(t.Body, func(e ast.Expr) {
			if x, is := e.(*ast.Ref); is && x.Name == fs.typed.Name.Name {
				x.Name = r.Name
			}
		}, fs.typed, fs.submit)
	}
	prefix := fs.base + "?" + url.QueryEscape(fs.field) + "="
	var addr ast.Expr = str(prefix)
	if site := c.siteInput(prefix); site != nil {
		addr = &ast.Binary{Op: "+", X: ref(site.Name.Name), Y: str(strings.TrimPrefix(prefix, inputDefault(site)))}
	}
	s := &ast.Step{Name: fs.typed.Name, Value: perform(action.Open, &ast.Binary{Op: "+", X: addr, Y: call("urlquery", fs.value)})}
	s.StmtMeta = fs.typed.StmtMeta
	anchors := anchorValues(t)
	s.Comments.Leading = append(append([]ast.Comment(nil), fs.typed.Comments.Leading...),
		ast.Comment{Text: "# api-first: the GET form's address instead of " + stepText(fs.typed, anchors) + " and " +
			stepText(fs.submit, anchors) + " (cogflow compile --no-api-first keeps them)"})
	s.Comments.Trailing = &ast.Comment{Text: "# " + cite(fs.cites)}
	return s
}

// stepText is a removed step as its line read, its anchors written out
// (they may go with it), for a comment. The step's own tree is changed: it
// is no longer in the file.
func stepText(s *ast.Step, anchors map[string]ast.Expr) string {
	v := rewrite(s.Value, func(e ast.Expr) (ast.Expr, bool) {
		if r, ok := e.(*ast.Ref); ok && anchors[r.Name] != nil {
			return anchors[r.Name], true
		}
		return nil, false
	})
	return s.Name.Name + " = " + printer.ExprString(v)
}

// anchorValues maps the task's anchors to their element expressions.
func anchorValues(t *ast.Task) map[string]ast.Expr {
	out := map[string]ast.Expr{}
	for _, s := range t.Body.Stmts {
		if a, ok := s.(*ast.AnchorDecl); ok {
			out[a.Name.Name] = a.Value
		}
	}
	return out
}

// siteInput is the url input whose default the address starts with, at a
// path boundary, so that the address follows the input to another site.
func (c *compiler) siteInput(addr string) *ast.InputDecl {
	for _, d := range c.inputs {
		v := inputDefault(d)
		if d.Type == nil || d.Type.Name != "url" || v == "" || !strings.HasPrefix(addr, v) {
			continue
		}
		if rest := addr[len(v):]; strings.HasSuffix(v, "/") || strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, "?") {
			return d
		}
	}
	return nil
}

// inputDefault is an input's literal default, "" when it has none.
func inputDefault(d *ast.InputDecl) string {
	if s, ok := d.Default.(*ast.StringLit); ok {
		return s.Value
	}
	return ""
}

// anchorsOf lists the names the steps refer to (anchors among them).
func anchorsOf(steps ...*ast.Step) map[string]bool {
	out := map[string]bool{}
	for _, s := range steps {
		ast.Inspect(s.Value, func(e ast.Expr) bool {
			if r, ok := e.(*ast.Ref); ok {
				out[r.Name] = true
			}
			return true
		})
	}
	return out
}

// dropUnusedAnchors removes the anchors among names that nothing refers
// to any more.
func (c *compiler) dropUnusedAnchors(t *ast.Task, names map[string]bool) {
	used := map[string]bool{}
	walkTaskExprs(t.Body, func(e ast.Expr) {
		if r, ok := e.(*ast.Ref); ok {
			used[r.Name] = true
		}
	})
	kept := t.Body.Stmts[:0]
	blank := false // a dropped anchor's blank line above stays, for the next one
	for _, s := range t.Body.Stmts {
		if a, ok := s.(*ast.AnchorDecl); ok && names[a.Name.Name] && !used[a.Name.Name] {
			blank = blank || a.BlankLine
			continue
		}
		if blank {
			s.Meta().BlankLine, blank = true, false
		}
		kept = append(kept, s)
	}
	t.Body.Stmts = kept
}

// walkTaskExprs calls fn on every expression of the block's statements and
// their bodies, but for the skipped steps.
func walkTaskExprs(b *ast.Block, fn func(ast.Expr), skip ...*ast.Step) {
	for _, s := range b.Stmts {
		if st, ok := s.(*ast.Step); ok && containsStep(skip, st) {
			continue
		}
		for _, e := range ast.Exprs(s) {
			ast.Inspect(e, func(x ast.Expr) bool { fn(x); return true })
		}
		for _, in := range ast.Bodies(s) {
			walkTaskExprs(in, fn, skip...)
		}
	}
}

func containsStep(list []*ast.Step, s *ast.Step) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// utf8Form reports whether the form sends its values in UTF-8, the
// encoding urlquery builds an address in: on a form of another encoding
// the same keyword would reach the server as other bytes. A trace without
// the fact proves nothing.
func utf8Form(f *trace.FormInfo) bool {
	return strings.EqualFold(f.Charset, "utf-8") || strings.EqualFold(f.Charset, "utf8")
}
