package explore

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/llm"
)

// The prompts. They name elements and parameters, never a value typed or
// read from a field: a value may be a secret.
const (
	rankSystem = "You help an agent operate an app's user interface to reach a goal. " +
		"For each numbered candidate action, rate how likely acting on it leads toward the goal, " +
		"from 1 (certainly not) to 5 (certainly). Answer with one line per candidate, `number: score`, and nothing else."
	reachedSystem = "You judge whether an app's screen shows that a goal has been reached. " +
		"Answer `yes` or `no`, then why, on one line."
	lessonSystem = "You write short lessons for an agent that explores an app's user interface. " +
		"Answer with one sentence of at most 20 words."
)

// progressScore is the least best score a new screen must have for the
// model to judge that the action leading to it made progress.
const progressScore = 3

// ask sends one chat to the model and counts it.
func (e *explorer) ask(ctx context.Context, system, user string) (string, error) {
	e.calls++
	name := e.o.ModelName
	if name == "" {
		name = config.DefaultTextModel
	}
	resp, err := e.o.Model.Complete(ctx, llm.Request{Model: name,
		Messages: []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: e.secrets.String(user)}},
	})
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("explore: the model: %w", err)
	}
	return resp.Text, nil
}

// header says the goal, the parameter names and the screen.
func (e *explorer) header(t *driver.Tree) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Goal: %s\n", e.g.Text)
	if len(e.o.Params) > 0 {
		names := make([]string, 0, len(e.o.Params))
		for n := range e.o.Params {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "Parameters (their values are filled in by the agent): %s\n", strings.Join(names, ", "))
	}
	fmt.Fprintf(&b, "Screen: %s (%s)\n", t.Title, place(t.URL))
	return b.String()
}

// maxRanked bounds the candidates one ranking request lists; the others
// (ranked lowest by knowledge and words) keep score 0.
const maxRanked = 40

// rank asks the model for a Likert score per candidate, one request for
// the whole screen, and returns how many scores the answer gave.
// Candidates the answer leaves out keep score 0.
func (e *explorer) rank(ctx context.Context, t *driver.Tree, cs []*cand) (int, error) {
	order(cs) // by knowledge and words: the ones listed when there are too many
	cs = cs[:min(len(cs), maxRanked)]
	var b strings.Builder
	b.WriteString(e.header(t))
	if len(e.lessons) > 0 {
		b.WriteString("Lessons from earlier explorations:\n")
		for _, l := range e.lessons {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	b.WriteString("Candidates:\n")
	for i, c := range cs {
		fmt.Fprintf(&b, "%d. %s\n", i+1, c.line())
	}
	text, err := e.ask(ctx, rankSystem, b.String())
	if err != nil {
		return 0, err
	}
	scores := parseScores(text)
	n := 0
	for i, c := range cs {
		if c.score = scores[i+1]; c.score > 0 {
			n++
		}
	}
	return n, nil
}

var scoreLine = regexp.MustCompile(`(?m)^\s*(?:candidate\s*)?(\d+)\s*[:.)=-]\s*([1-5])\b`)

// parseScores reads `number: score` lines.
func parseScores(text string) map[int]int {
	out := map[int]int{}
	for _, m := range scoreLine.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		s, _ := strconv.Atoi(m[2])
		out[n] = s
	}
	return out
}

// judgeReached asks the model whether the screen shows the goal reached.
func (e *explorer) judgeReached(ctx context.Context, t *driver.Tree) (bool, string, error) {
	var b strings.Builder
	b.WriteString(e.header(t))
	b.WriteString("What the screen shows:\n")
	n := 0
	for _, el := range t.Elements {
		if el == nil || !el.Visible || n >= 80 {
			continue
		}
		if l := screenLine(el); l != "" {
			b.WriteString("- " + l + "\n")
			n++
		}
	}
	b.WriteString("Is the goal reached?")
	text, err := e.ask(ctx, reachedSystem, b.String())
	if err != nil {
		return false, "", err
	}
	a := strings.ToLower(strings.TrimSpace(text))
	switch {
	case strings.HasPrefix(a, "yes"):
		return true, clip(strings.TrimSpace(text), 120), nil
	case strings.HasPrefix(a, "no"):
		return false, clip(strings.TrimSpace(text), 120), nil
	}
	return false, "", fmt.Errorf("explore: the model's answer to \"is the goal reached?\" is neither yes nor no: %q", clip(text, 80))
}

// screenLine is an element as the model reads the screen: role and the
// words naming it, never a field's value.
func screenLine(el *driver.Element) string {
	if el.Editable {
		if l := label(el); l != "" {
			return el.Role + " " + quoteClip(l, 60)
		}
		return ""
	}
	txt := el.Text
	if txt == "" {
		txt = el.Name
	}
	if txt == "" {
		return ""
	}
	return el.Role + " " + quoteClip(txt, 80)
}

// lesson asks the model for one sentence about a wrong branch.
func (e *explorer) lesson(ctx context.Context, branch []string, why string) (string, error) {
	user := fmt.Sprintf("Goal: %s\nThe agent tried: %s\nIt led nowhere (%s), so the agent went back.\n"+
		"What should a later exploration of this goal remember?", e.g.Text, strings.Join(branch, ", then "), why)
	text, err := e.ask(ctx, lessonSystem, user)
	if err != nil {
		return "", err
	}
	return clip(strings.TrimSpace(strings.SplitN(strings.TrimSpace(text), "\n", 2)[0]), 200), nil
}
