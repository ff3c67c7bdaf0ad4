package runtime

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
)

// ErrNoAnswerer explains how to get dependencies answered.
var ErrNoAnswerer = errors.New("nothing could answer it: configure a language model " +
	"(set OPENAI_API_KEY, and OPENAI_BASE_URL for another OpenAI-compatible endpoint) " +
	"or run with --ask to answer at the terminal")

// dependency resolves e through the cascade: the exact-match answerer
// first, then the configured ones in order.
func (in *Interp) dependency(ctx context.Context, e *ast.Dependency) (cty.Value, error) {
	if e.Sub.Name == "explore" {
		return in.exploreDependency(ctx, e) // explore_step.go: not a question, a search
	}
	req, err := in.dependencyRequest(ctx, e)
	if err != nil {
		return cty.NilVal, err
	}
	return in.answer(ctx, e, req)
}

// answer asks req of the exact-match answerer, then of the configured
// ones in order, and returns the first answer.
func (in *Interp) answer(ctx context.Context, e *ast.Dependency, req *dependency.Request) (cty.Value, error) {
	answerers := append([]dependency.Answerer{exactMatch{}}, in.opts.Answerers...)
	// A answerer that fails (a model that answered nonsense twice) hands
	// the question on: a person at the terminal may still answer it.
	var failed error
	for _, r := range answerers {
		ans, err := r.Answer(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return cty.NilVal, err
			}
			if failed == nil {
				// Answerers that name the dependency themselves are reported
				// as they are, so that the message does not say it twice.
				failed = err
				if !strings.Contains(err.Error(), e.Sub.Name+"<") {
					failed = fmt.Errorf("%s<%q>: %s: %w", e.Sub.Name, e.Description.Value, r.Name(), err)
				}
			}
			continue
		}
		if ans == nil {
			continue
		}
		src := r.Name()
		if ans.Cached {
			src = "cache"
		}
		in.lastSource[e] = src
		in.lastAnswer[e] = ans
		in.used = append(in.used, usedAnswer{answerer: r, dep: e, answer: ans})
		return answerValue(req, ans)
	}
	if failed != nil {
		return cty.NilVal, failed
	}
	return cty.NilVal, fmt.Errorf("%s<%q>: %w", e.Sub.Name, e.Description.Value, ErrNoAnswerer)
}

// dependencyRequest builds the question e asks: its description, result
// type, task goal, step, evaluated inputs and the screen it is asked about.
func (in *Interp) dependencyRequest(ctx context.Context, e *ast.Dependency) (*dependency.Request, error) {
	vals := make([]cty.Value, len(e.Inputs))
	for i, a := range e.Inputs {
		v, err := in.eval(ctx, a.Value)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return in.requestWith(ctx, e, vals)
}

// requestWith is dependencyRequest with e's inputs evaluated already
// (vals, one per input).
func (in *Interp) requestWith(ctx context.Context, e *ast.Dependency, vals []cty.Value) (*dependency.Request, error) {
	req := &dependency.Request{Sub: e.Sub.Name, Description: e.Description.Value, Result: in.resultType(e)}
	if e.Main != nil {
		req.Main = e.Main.Name
	}
	if in.task.Goal != nil {
		req.Goal = in.task.Goal.Value
	}
	if s := in.current; s != nil {
		req.Step, req.Line = s.Name.Name, s.Range.Start.Line
	}
	var scope *Elem
	for i, a := range e.Inputs {
		v := vals[i]
		if a.Name != nil && a.Name.Name == "within" {
			var err error
			if scope, err = asElem(v); err != nil {
				return nil, fmt.Errorf("within: %w", err)
			}
			continue
		}
		req.Inputs = append(req.Inputs, render(v))
	}
	if err := in.addScreen(ctx, req, scope); err != nil {
		return nil, err
	}
	return req, nil
}

// addScreen puts the screen in req: the tree, and the elements an element
// answer may choose from (only those inside scope when it is not nil), or
// the screen's text for other answers when the driver can read it.
func (in *Interp) addScreen(ctx context.Context, req *dependency.Request, scope *Elem) error {
	// The screen is part of every question: extract_information reads it,
	// match_element chooses from it.
	tree, err := in.observe(ctx)
	if err != nil {
		return err
	}
	req.Tree = tree
	if req.Result.Kind == types.Element {
		req.Candidates = actionable(tree)
		if scope != nil {
			// Only what lies inside the scope may be chosen: a page that
			// talks the model into another answer still cannot leave it.
			live, err := in.anchorElement(ctx, scope)
			if err != nil {
				return fmt.Errorf("within: %w", err)
			}
			req.Candidates = actionable(&driver.Tree{Elements: descendants(tree, live.Ref)})
			req.Scope = live
		}
	} else if sr, ok := in.drv.(driver.ScreenReader); ok {
		if req.ScreenText, err = sr.ScreenText(ctx); err != nil {
			return err
		}
	}
	return nil
}

// resultType is the dependency's type as the checker computed it.
func (in *Interp) resultType(e *ast.Dependency) types.Type {
	switch e.Sub.Name {
	case "match_element":
		return types.ElementT
	case "calculate":
		return types.NumberT
	}
	if t, ok := in.info.DepTypes[e]; ok {
		return t
	}
	return types.TextT
}

func answerValue(req *dependency.Request, a *dependency.Answer) (cty.Value, error) {
	switch req.Result.Kind {
	case types.Element:
		if a.Element == nil {
			return cty.NilVal, fmt.Errorf("the answer is not an element")
		}
		return elemVal(&Elem{Desc: snapshotLocator(a.Element), Live: a.Element, Origin: req.Sub}), nil
	case types.Number:
		return cty.NumberFloatVal(a.Number), nil
	}
	return cty.StringVal(a.Text), nil
}

// actionable lists the visible elements a choice may fall on.
func actionable(t *driver.Tree) []*driver.Element {
	var out []*driver.Element
	for _, el := range t.Elements {
		if el.Visible && (el.Text != "" || el.Name != "") {
			switch el.Role {
			case "link", "button", "listitem", "cell", "row", "option", "menuitem", "tab", "treeitem", "checkbox", "radio", "heading", "text", "paragraph":
				out = append(out, el)
			}
		}
	}
	return out
}

// exactMatch answers match_element and match_text without judgement when
// exactly one candidate's text equals an input: the structural answerer.
type exactMatch struct{}

func (exactMatch) Name() string { return "structural" }

func (exactMatch) Answer(_ context.Context, r *dependency.Request) (*dependency.Answer, error) {
	if r.Sub != "match_element" && r.Sub != "match_text" {
		return nil, nil
	}
	var found *driver.Element
	for _, in := range r.Inputs {
		for _, c := range r.Candidates {
			if normalize(in) != "" && (normalize(c.Text) == normalize(in) || normalize(c.Name) == normalize(in)) {
				if found != nil && found != c {
					return nil, nil // ambiguous: leave it to judgement
				}
				found = c
			}
		}
	}
	if found == nil {
		return nil, nil
	}
	return &dependency.Answer{Element: found, Text: elementText(found)}, nil
}

// Prompter asks a person at the terminal.
type Prompter interface {
	// Ask shows the question and returns the answer line.
	Ask(question string) (string, error)
}

// TermPrompter asks on a terminal (or any reader and writer).
type TermPrompter struct {
	In  *bufio.Reader
	Out io.Writer
}

// NewTermPrompter reads answers from r and writes questions to w.
func NewTermPrompter(r io.Reader, w io.Writer) *TermPrompter {
	return &TermPrompter{In: bufio.NewReader(r), Out: w}
}

// Ask implements Prompter.
func (p *TermPrompter) Ask(q string) (string, error) {
	fmt.Fprintf(p.Out, "%s\n> ", q)
	line, err := p.In.ReadString('\n')
	if err != nil && line == "" {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// AskAnswerer lets a person answer dependencies (--ask).
type AskAnswerer struct{ P Prompter }

// Name implements Answerer.
func (AskAnswerer) Name() string { return "ask" }

// Answer implements Answerer: it shows the dependency, its inputs and, for
// an element, the numbered candidates, and reads the answer.
func (a AskAnswerer) Answer(_ context.Context, r *dependency.Request) (*dependency.Answer, error) {
	var q strings.Builder
	fmt.Fprintf(&q, "line %d, step %s needs: %s<%q>\n", r.Line, r.Step, r.Sub, r.Description)
	for i, in := range r.Inputs {
		fmt.Fprintf(&q, "  input %d: %s\n", i+1, truncate(in, 300))
	}
	if r.Result.Kind == types.Element {
		for i, c := range r.Candidates {
			fmt.Fprintf(&q, "  [%d] %s\n", i+1, describe(c))
		}
		q.WriteString("answer with the number of the element")
	} else {
		fmt.Fprintf(&q, "answer with the %s", r.Result)
	}
	question := q.String()
	for {
		line, err := a.P.Ask(q.String())
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		switch r.Result.Kind {
		case types.Element:
			n, err := strconv.Atoi(line)
			if err == nil && n >= 1 && n <= len(r.Candidates) {
				return &dependency.Answer{Element: r.Candidates[n-1]}, nil
			}
		case types.Number:
			f, err := ParseNumber(line)
			if err == nil {
				return &dependency.Answer{Number: f}, nil
			}
			// Say why before asking again: strconv reads "NaN" and "Inf",
			// which no step can use.
			q.Reset()
			fmt.Fprintf(&q, "(%v; answer again)\n%s", err, question)
		default:
			return &dependency.Answer{Text: line}, nil
		}
	}
}
