package discover

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/match"
	"github.com/cogflow/cogflow/runtime/redact"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// RunTimeout bounds one validation run: a skill that hangs fails.
const RunTimeout = 2 * time.Minute

// NotSafe is the reason a mutating skill is not run.
const NotSafe = "not validated: mutating, target not named safe (name it with --safe URL, or give --yes)"

// Run is one validation run of one body on one parameter set.
type Run struct {
	Body string `json:"body"` // BodySteps or BodyAPI
	Set  int    `json:"set"`  // the parameter set, from 1
	OK   bool   `json:"ok"`
	// Reason is why the run failed: the step that failed, or the check
	// of the final state that did not hold (secrets redacted).
	Reason string `json:"reason,omitempty"`
	Millis int64  `json:"ms"`
}

// Verdict is what validating one skill concluded.
type Verdict struct {
	Name     string
	Accepted bool
	// Why are the reasons a skill was rejected, and notes on an accepted
	// one (its API translation failed and the UI steps are kept).
	Why  []string
	Runs []Run
	// Body is the form that passed every run and is written: the API
	// translation when it passed, else the UI steps.
	Body Body
}

// Target is where dynamic validation runs.
type Target struct {
	Driver driver.Driver
	// Start is the page (or app) each run starts from: opened before it.
	Start string
	// Mutate allows running a mutating skill: the target was named safe,
	// or the person said yes.
	Mutate bool
	// Safe, when set, is the target named safe: a mutating skill's run
	// may open, and act on, only the pages it accepts. Nil with Mutate: any
	// page (the person said yes).
	Safe func(url string) bool
	// Knowledge is the knowledge base of the validation task (nil: the
	// default).
	Knowledge *kb.KB
	// Secrets are the values of the secret parameters of a stored skill,
	// by name (they are never stored); nil for a proposal, whose sets
	// hold them.
	Secrets map[string]string
}

// Dynamic runs each body of a candidate once per parameter set and checks
// the final state after each run. The first body (the UI steps; a stored
// skill's only one) must pass on every set; the API translation is kept
// only when it passes on every set too and ends at the address the UI
// steps ended at. A mutating skill is not run unless t.Mutate.
func Dynamic(ctx context.Context, c *Candidate, t Target) Verdict {
	v := Verdict{Name: c.Name}
	if c.Effect == Mutating && !t.Mutate {
		v.Why = []string{NotSafe}
		return v
	}
	passed := map[string]bool{}
	ends := map[int]string{} // the first body's final address, per set
	for k, b := range c.Bodies {
		passed[b.Kind] = true
		for i, set := range c.Sets {
			r, end := runOnce(ctx, c, b, i, set, t)
			switch {
			case k == 0:
				ends[i] = end
			case r.OK && !sameAddress(end, ends[i]):
				// An API call must give what the UI gives: its page is
				// not confirmed by a predicate both happen to pass.
				r.OK, r.Reason = false, fmt.Sprintf("ends at %s, the %s at %s", end, c.Bodies[0].Kind, ends[i])
			}
			v.Runs = append(v.Runs, r)
			if !r.OK {
				passed[b.Kind] = false
				v.Why = append(v.Why, fmt.Sprintf("%s, parameter set %d: %s", b.Kind, i+1, r.Reason))
				break // the first failure says enough; the runs are slow
			}
		}
		if ctx.Err() != nil {
			v.Why = append(v.Why, "interrupted: "+ctx.Err().Error())
			return v
		}
	}
	first := c.Bodies[0]
	switch {
	case !passed[first.Kind]:
		return v
	case len(c.Bodies) > 1 && passed[BodyAPI]:
		v.Body = c.body(BodyAPI)
	default:
		v.Body = first
		if len(c.Bodies) > 1 {
			v.Why = append(v.Why, "the API translation failed, so the UI steps are kept")
		}
	}
	if c.Keeps != "" && v.Body.Kind != c.Keeps {
		v.Why = append(v.Why, fmt.Sprintf("the file holds the %s form, which no longer gives what the %s give; discover the skill again", c.Keeps, v.Body.Kind))
		v.Body = Body{}
		return v
	}
	v.Accepted = true
	return v
}

func (c *Candidate) body(kind string) Body {
	for _, b := range c.Bodies {
		if b.Kind == kind {
			return b
		}
	}
	return Body{}
}

// runOnce starts from the target's start, runs the validation task for
// one set and checks the final address; it returns the run and the final
// address (secrets redacted).
func runOnce(ctx context.Context, c *Candidate, b Body, i int, set map[string]string, t Target) (r Run, end string) {
	r = Run{Body: b.Kind, Set: i + 1}
	began := time.Now()
	defer func() { r.Millis = time.Since(began).Milliseconds() }() // on the result: named
	inputs := map[string]string{}
	secrets := redact.New()
	fail := func(format string, args ...any) (Run, string) {
		r.Reason = secrets.String(fmt.Sprintf(format, args...))
		return r, ""
	}
	for _, p := range c.Params {
		val, ok := set[p.Name]
		if p.Type == "secret" && !ok {
			// A stored skill keeps no secret: the caller gives it.
			if val, ok = t.Secrets[p.Name]; !ok {
				return fail("no value for the secret parameter %q (it is never stored; give it with --secret-env %s=VARIABLE)", p.Name, p.Name)
			}
		}
		inputs[p.Name] = val
		if p.Type == "secret" {
			secrets.Add(val)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, RunTimeout)
	defer cancel()
	switch {
	case c.Effect == Mutating && t.Safe != nil:
		t.Driver = guarded(t.Driver, guard{safe: t.Safe})
	case c.Effect == ReadOnly:
		k := t.Knowledge
		if k == nil {
			k = kb.Default()
		}
		t.Driver = guarded(t.Driver, guard{readOnly: true, words: k.Irreversible})
	}
	if t.Start != "" {
		if _, err := t.Driver.Do(ctx, driver.Action{Op: action.Open, Text: t.Start}); err != nil {
			return fail("opening the start %s: %v", t.Start, err)
		}
	}
	name := fmt.Sprintf("%s.validate.cog", c.Name)
	wf, ds := cogflow.LoadSource(name, []byte(validationTask(c, b, set)), cogflow.Options{Knowledge: t.Knowledge})
	if ds.HasErrors() {
		return fail("the validation task does not check: %s", strings.Join(diagLines(ds), "; "))
	}
	_, err := wf.Run(ctx, cogflow.RunOptions{Driver: t.Driver, Inputs: inputs, Yes: c.Effect == Mutating && t.Mutate, Secrets: secrets})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fail("the run took longer than %s", RunTimeout)
		}
		return fail("%v", err)
	}
	tree, err := t.Driver.Observe(ctx)
	if err != nil {
		return fail("reading the final state: %v", err)
	}
	if want := c.FinalState.URLContains; want != "" {
		want = substitute(want, set, func(s string) string { return s })
		if !strings.Contains(unescape(tree.URL), want) {
			return fail("final state: the address %s does not contain %q", tree.URL, want)
		}
	}
	for _, s := range c.FinalState.Shows {
		if text := substitute(s, set, func(s string) string { return s }); !shows(tree, text) {
			return fail("final state: the screen must show %q: %q is not on the screen (what a field holds does not count)", s, text)
		}
	}
	r.OK = true
	return r, secrets.String(tree.URL)
}

// shows reports whether the screen shows text. Unlike assert("text"),
// what a field holds does not count: a skill that only typed its query
// into the search box would pass a check that the page shows the query.
func shows(t *driver.Tree, text string) bool {
	want := match.Normalize(text)
	for _, e := range t.Elements {
		if e != nil && !e.Editable && strings.Contains(match.Normalize(e.Text), want) {
			return true
		}
	}
	return false
}

// unescape decodes an address's escapes, so that q=Mount+Kenya and
// q=Mount%20Kenya both read q=Mount Kenya.
func unescape(u string) string {
	if d, err := url.QueryUnescape(u); err == nil {
		return d
	}
	return u
}

// sameAddress compares two final addresses, escapes decoded.
func sameAddress(a, b string) bool { return unescape(a) == unescape(b) }

// validationTask is a file with the skill and a task that calls it with
// the set's values (given as inputs) and then asserts the final state's
// elements, the set's values written in (its texts are checked after the
// run, by shows). A secret parameter is an input of type secret, never
// written: the final state may not name one (Static).
func validationTask(c *Candidate, b Body, set map[string]string) string {
	var w strings.Builder
	w.WriteString(b.Source)
	fmt.Fprintf(&w, "\n\ntask validate_%s %s {\n  driver %s\n", c.Name, strconv.Quote("Validate the skill "+c.Name), c.Driver)
	var args []string
	for _, p := range c.Params {
		fmt.Fprintf(&w, "  input %s: %s\n", p.Name, p.Type)
		args = append(args, p.Name)
	}
	fmt.Fprintf(&w, "\n  validate_call = %s(%s)\n", c.Name, strings.Join(args, ", "))
	inString := func(s string) string { q := strconv.Quote(s); return q[1 : len(q)-1] }
	for i, e := range c.FinalState.Elements {
		fmt.Fprintf(&w, "  validate_element_%d = assert(%s, message: %s)\n", i+1, substitute(e, set, inString),
			strconv.Quote("final state: the screen must hold "+e))
	}
	w.WriteString("}\n")
	return w.String()
}
