package goal

import (
	"context"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Bounds of what a prompt shows of a screen.
const (
	screenItems = 60   // texts of one screen
	screenChars = 1800 // characters of one screen
	itemChars   = 80   // characters of one text
	promptSteps = 120  // steps shown; the rest are counted
)

// inferSystem is the system message of the goal request.
const inferSystem = `You identify the goal of a person from the trajectory of their work in a user interface: what they set out to do, said as one imperative sentence a person could be given as the task, with its parameters (the values they would change to do the task again for something else: a typed text, a chosen item).
Answer with exactly these lines and nothing else:
goal: <one sentence>
param: <name> = <value as the trajectory shows it>
(one param line per parameter; none when the task has none). Say what the person wanted, not every click.`

// Trajectory renders what a trace shows for a prompt: the screen at the
// start and at the end, and the steps. It is built from the trace alone,
// so a masked instruction cannot appear in it.
func Trajectory(tr *trace.Trace) string {
	return trajectory(tr, Steps(tr))
}

func trajectory(tr *trace.Trace, steps []Step) string {
	var b strings.Builder
	first, last := snapshotsAtEnds(tr)
	secret := secretRefs(tr)
	if first != nil {
		fmt.Fprintf(&b, "Screen at the start (%s):\n%s\n", firstNonEmpty(first.Title, shownURL(first.URL), shownURL(tr.Start.URL), tr.Start.App), screenText(first, secret))
	} else if s := firstNonEmpty(shownURL(tr.Start.URL), tr.Start.App); s != "" {
		fmt.Fprintf(&b, "Started at: %s\n", s)
	}
	fmt.Fprintf(&b, "Steps (%d):\n", len(steps))
	for i, s := range steps {
		if i == promptSteps {
			fmt.Fprintf(&b, "… %d more steps\n", len(steps)-i)
			break
		}
		fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, s.Event, stepLine(s))
	}
	if last != nil && last != first {
		fmt.Fprintf(&b, "Screen at the end (%s):\n%s\n", firstNonEmpty(last.Title, shownURL(last.URL)), screenText(last, secret))
	}
	return b.String()
}

// where is where a step's value was seen: `e7: typed into textbox "Name"`.
func (s Step) where() string {
	if s.Target == "" {
		return s.Event + ": " + s.Verb
	}
	return s.Event + ": " + s.Verb + s.prep() + s.Target
}

// prep joins the verb to the element: " into ", " in ", " from ", " ".
func (s Step) prep() string {
	if p := map[string]string{"typed": " into ", "pasted": " into ", "chose": " in ", "selected": " in ", "copied": " from ", "pressed": " in "}[s.Verb]; p != "" {
		return p
	}
	return " "
}

// stepLine is one step as the prompt says it.
func stepLine(s Step) string {
	line := s.Verb
	switch {
	case s.Secret:
		line += " a password"
	case s.Value != "":
		line += fmt.Sprintf(" %q", capText(s.Value, 200))
	}
	if s.Target != "" {
		line += s.prep() + s.Target
	}
	if s.Context != "" {
		line += " (" + s.Context + ")"
	}
	if s.Page != "" {
		line += fmt.Sprintf(" [on %q]", capText(s.Page, 80))
	}
	return line
}

// snapshotsAtEnds are the snapshots of the first and the last event that
// has one.
func snapshotsAtEnds(tr *trace.Trace) (first, last *trace.Snapshot) {
	for i := range tr.Events {
		if s, ok := tr.Snapshots[tr.Events[i].Snapshot]; ok {
			s := s
			if first == nil {
				first = &s
			}
			last = &s
		}
	}
	return first, last
}

// secretRefs are the refs of the password fields the trace acted on:
// their values are never shown.
func secretRefs(tr *trace.Trace) map[string]bool {
	refs := map[string]bool{}
	for _, e := range tr.Events {
		if e.Target != nil && e.Target.Secret && e.Target.Ref != "" {
			refs[e.Target.Ref] = true
		}
	}
	return refs
}

// screenText lists a snapshot's texts: the leaves' texts and the controls'
// names, once each, capped; a password field's value never.
func screenText(s *trace.Snapshot, secret map[string]bool) string {
	hasTextChild := make([]bool, len(s.Elements))
	for _, e := range s.Elements {
		if e.Parent >= 0 && e.Parent < len(hasTextChild) && (e.Text != "" || e.Name != "") {
			hasTextChild[e.Parent] = true
		}
	}
	var items []string
	seen := map[string]bool{}
	n := 0
	for i, e := range s.Elements {
		value := e.Value
		if secret[e.Ref] {
			value = ""
		}
		t := firstNonEmpty(e.Text, e.Name, value, e.Placeholder)
		if hasTextChild[i] && e.Name == "" || t == "" || seen[t] {
			continue
		}
		seen[t] = true
		item := capText(t, itemChars)
		if e.Role != "" && e.Role != "text" && e.Role != "generic" && e.Role != "StaticText" {
			item = e.Role + " " + fmt.Sprintf("%q", item)
		}
		if len(items) >= screenItems || n+len(item) > screenChars {
			items = append(items, "…")
			break
		}
		n += len(item) + 3
		items = append(items, item)
	}
	if len(items) == 0 {
		return "(no text)"
	}
	return strings.Join(items, " | ")
}

// inferModel asks the model for the goal and keeps only parameters the
// trajectory shows.
func inferModel(ctx context.Context, tr *trace.Trace, steps []Step, opts Options) (*Goal, error) {
	traj := trajectory(tr, steps)
	user := "Trajectory:\n" + traj + "\nWhat was the person's goal?"
	text, err := complete(ctx, opts, inferSystem, user)
	if err != nil {
		return nil, fmt.Errorf("goal: the model: %w", err)
	}
	g := &Goal{Source: SourceModel}
	for _, line := range strings.Split(text, "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(strings.TrimLeft(val, "*_ ")) // "**Goal:** …"
		switch strings.ToLower(strings.Trim(key, " *-")) {
		case "goal":
			if g.Sentence == "" && !(strings.HasPrefix(val, "<") && strings.HasSuffix(val, ">")) { // not the template echoed
				g.Sentence = strings.Trim(val, `"`)
			}
		case "param":
			name, v, ok := strings.Cut(val, "=")
			name, v = ident(strings.TrimSpace(name)), strings.Trim(strings.TrimSpace(v), `"`)
			if !ok || name == "" || v == "" {
				g.Notes = append(g.Notes, fmt.Sprintf("dropped the parameter line %q: not name = value", val))
				continue
			}
			where := seenAt(tr, steps, v)
			if where == "" {
				g.Notes = append(g.Notes, fmt.Sprintf("dropped the parameter %s = %q: the trajectory does not show it", name, v))
				continue
			}
			g.Params = append(g.Params, Param{Name: name, Value: v, Where: where})
		}
	}
	if g.Sentence == "" {
		return nil, fmt.Errorf("goal: the model's answer has no \"goal:\" line: %q", capText(text, 200))
	}
	return g, nil
}

// seenAt says where the trajectory shows a value: the step that typed,
// chose or clicked it, else the first snapshot holding it; "" when
// nowhere.
func seenAt(tr *trace.Trace, steps []Step, v string) string {
	shows := wholeValue(normalize(v)) // "1" is not seen in "10", nor "an" in "Quantity"
	for _, s := range steps {
		for _, x := range []string{s.Value, s.Label} {
			if x != "" && shows(normalize(x)) {
				return s.where()
			}
		}
	}
	for i := range tr.Events {
		s, ok := tr.Snapshots[tr.Events[i].Snapshot]
		if !ok {
			continue
		}
		secret := secretRefs(tr)
		for _, e := range s.Elements {
			value := e.Value
			if secret[e.Ref] {
				value = ""
			}
			for _, x := range []string{e.Text, e.Name, value} {
				if x != "" && shows(normalize(x)) {
					return fmt.Sprintf("%s: on the screen (%s)", tr.Events[i].ID, describe(e.Role, capText(x, 60)))
				}
			}
		}
	}
	return ""
}

// complete sends one chat request and returns the answer's text.
func complete(ctx context.Context, opts Options, system, user string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, opts.timeout())
	defer cancel()
	resp, err := opts.LLM.Complete(ctx, llm.Request{
		Model:       opts.Model,
		Temperature: 0,
		Messages:    []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: user}},
	})
	if err != nil {
		return "", err
	}
	return resp.Text, nil
}

// normalize lower-cases s and collapses its white space, for comparing
// values.
func normalize(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
