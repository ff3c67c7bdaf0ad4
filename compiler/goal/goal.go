// Package goal identifies the goal of a demonstration from its trajectory:
// the sentence the demonstration carries out and its parameters (Infer),
// and judges whether two goal descriptions, each with the trajectory that
// carried it out, mean the same task by mutual satisfaction (Judge), after
// the goal-identification paper: A and B are paraphrases in a UI
// environment when A's trajectory fulfils B and B's fulfils A. Without a
// model both say what rules can, and say so; with one, a prompt is built
// from the trajectory. It also runs the evaluation protocol over a folder
// of demonstrations with reference goals (Evaluate) and hides a
// demonstration's on-screen instruction before inferring (Mask).
package goal

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Sources of a goal or a verdict.
const (
	SourceRules = "rules" // no model: what the rules can say
	SourceModel = "model" // a language model's answer, checked against the trajectory
)

// Goal is the inferred goal of one demonstration.
type Goal struct {
	// Sentence says what the demonstration does, in the imperative.
	Sentence string
	// Params are the values a person would change to do the task again
	// differently, each with where it was seen.
	Params []Param
	// Source is SourceRules or SourceModel.
	Source string
	// Notes say what was dropped from a model's answer and why.
	Notes []string
}

// Param is one parameter of a goal.
type Param struct {
	Name  string // a short identifier: keyword, username, item
	Value string // as the trajectory shows it
	Where string // where it was seen: `e7: typed into textbox "Name"`
}

// Options configure Infer and Judge.
type Options struct {
	// LLM is the model client; nil means rules only.
	LLM llm.Client
	// Model is the model name sent with each request.
	Model string
	// Timeout bounds one request; 0 means two minutes.
	Timeout time.Duration
}

func (o Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return 2 * time.Minute
}

// maxClauses bounds the clauses of a rules sentence.
const maxClauses = 10

// Infer identifies the goal of a trace: by rules when opts has no model,
// else by the model, whose answer is checked against the trajectory.
func Infer(ctx context.Context, tr *trace.Trace, opts Options) (*Goal, error) {
	if tr == nil {
		return nil, errors.New("goal: no trace")
	}
	steps := Steps(tr)
	if opts.LLM == nil {
		return inferRules(steps), nil
	}
	return inferModel(ctx, tr, steps, opts)
}

// inferRules says what rules can: the values typed, chosen and clicked
// become parameters, and the steps a sentence from templates.
func inferRules(steps []Step) *Goal {
	g := &Goal{Source: SourceRules, Params: rulesParams(steps)}
	var clauses []string
	times := 1 // how many times in a row the last clause was done
	for _, s := range steps {
		c := clause(s)
		switch {
		case c == "":
		case len(clauses) > 0 && strings.TrimSuffix(clauses[len(clauses)-1], fmt.Sprintf(" %d times", times)) == c:
			times++
			clauses[len(clauses)-1] = fmt.Sprintf("%s %d times", c, times)
		default:
			clauses, times = append(clauses, c), 1
		}
	}
	if len(clauses) == 0 {
		g.Sentence = "Do nothing (the demonstration has no steps)"
		return g
	}
	if len(clauses) > maxClauses {
		more := len(clauses) - maxClauses
		clauses = append(clauses[:maxClauses], fmt.Sprintf("%d more steps", more))
	}
	g.Sentence = capitalize(joinClauses(clauses))
	return g
}

// rulesParams are the steps' chosen values, once each, named after the
// element they went into.
func rulesParams(steps []Step) []Param {
	var ps []Param
	seen := map[string]bool{}
	names := map[string]int{}
	for _, s := range steps {
		v := s.Value
		if strings.HasSuffix(s.Verb, "clicked") || s.Verb == "checked" {
			v = s.Label
		}
		if !s.Param || v == "" || seen[strings.ToLower(v)] {
			continue
		}
		seen[strings.ToLower(v)] = true
		name := paramName(s)
		names[name]++
		if n := names[name]; n > 1 {
			name = fmt.Sprintf("%s_%d", name, n)
		}
		ps = append(ps, Param{Name: name, Value: v, Where: s.where()})
	}
	return ps
}

// paramName is an identifier for a step's value: the field's label for a
// typed text, "item" for a clicked one, "option" for a chosen one.
func paramName(s Step) string {
	switch s.Verb {
	case "typed", "pasted":
		if id := ident(s.Label); id != "" && len(id) <= 24 {
			return id
		}
		return "text"
	case "chose":
		if id := ident(s.Label); id != "" && len(id) <= 24 {
			return id
		}
		return "option"
	case "uploaded":
		return "file"
	}
	return "item"
}

// clause is a step as an imperative clause of the rules sentence.
func clause(s Step) string {
	into := ""
	if s.Target != "" {
		into = " into " + s.Target
	}
	switch s.Verb {
	case "typed", "pasted":
		if s.Secret {
			return "enter the password" + into
		}
		verb := map[string]string{"typed": "enter", "pasted": "paste"}[s.Verb]
		return fmt.Sprintf("%s %q%s", verb, s.Value, into)
	case "chose":
		return fmt.Sprintf("choose %q%s", s.Value, strings.Replace(into, " into ", " in ", 1))
	case "clicked", "double-clicked", "right-clicked", "middle-clicked", "checked":
		verb := strings.TrimSuffix(s.Verb, "ed")
		if s.Verb == "checked" {
			verb = "check"
		}
		if s.Label == "" {
			if s.Role == "" || s.Role == "generic" || s.Role == "text" {
				return verb + " an element"
			}
			return verb + " a " + s.Role
		}
		return fmt.Sprintf("%s %q", verb, s.Label)
	case "pressed":
		return "press " + s.Value
	case "opened":
		return "open " + s.Value
	case "selected", "copied":
		verb := map[string]string{"selected": "select", "copied": "copy"}[s.Verb]
		return fmt.Sprintf("%s %q", verb, capText(s.Value, 60))
	case "switched to":
		return fmt.Sprintf("switch to %q", s.Value)
	case "dragged":
		return "drag " + s.Target
	case "dropped onto":
		return "drop it onto " + s.Target
	case "uploaded":
		return fmt.Sprintf("upload %q", s.Value)
	case "answered":
		return "answer the " + s.Value
	}
	return ""
}

// joinClauses joins "a", "b", "c" as "a, b, then c".
func joinClauses(cs []string) string {
	if len(cs) == 1 {
		return cs[0]
	}
	return strings.Join(cs[:len(cs)-1], ", ") + ", then " + cs[len(cs)-1]
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// ident makes a label an identifier: lower case words joined by "_".
func ident(s string) string {
	var b strings.Builder
	sep := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if sep && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			sep = false
		default:
			sep = true
		}
	}
	out := b.String()
	if out != "" && out[0] >= '0' && out[0] <= '9' {
		out = "p_" + out
	}
	return out
}
