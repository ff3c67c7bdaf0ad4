package reflection

import (
	"context"
	"embed"
	"fmt"
	"regexp"
	"strings"
	"text/template"
	"time"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// requestTemperature is the temperature of the reflection request: low, because
// the reply must follow a strict format, but not zero, because naming a
// new subcategory is a small creative act.
const requestTemperature = 0.2

// timeout bounds one reflection request.
const timeout = 2 * time.Minute

// stepWindow is how many steps before and after the changed one the prompt
// shows; a task's other steps rarely explain a correction.
const stepWindow = 6

//go:embed prompts/*.txt
var promptFiles embed.FS

var (
	versionRE = regexp.MustCompile(`^# prompt (v[0-9]+)\s*$`)
	// The templates are parsed once; a broken file is a programming error,
	// which TestPromptGolden rules out.
	systemVersion, systemTmpl   = mustLoad("system")
	reflectVersion, reflectTmpl = mustLoad("reflect")
)

func mustLoad(name string) (string, *template.Template) {
	b, err := promptFiles.ReadFile("prompts/" + name + ".txt")
	if err != nil {
		panic("reflection: " + err.Error())
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	m := versionRE.FindStringSubmatch(first)
	if m == nil {
		panic("reflection: prompts/" + name + ".txt must start with a line \"# prompt vN\"")
	}
	return m[1], template.Must(template.New(name).Option("missingkey=error").Parse(rest))
}

// Request is what one reflection request is about.
type Request struct {
	KB *kb.KB
	// Filename names the edited workflow in the prompt.
	Filename string
	// Original and Edited are the compiled and the edited workflow; Change
	// is one of Changes(Original, Edited).
	Original, Edited *ast.File
	Change           Change
}

type subData struct {
	Main, Name, Result, Definition string
	Examples                       []string
}

type promptData struct {
	Categories    []*kb.Category
	Subcategories []subData
	Rules         []*kb.Rule
	Mains         string
	File, Task    string
	Goal          string
	Steps         string
	Step, Kind    string
	Original      string
	Edited        string
	OriginalStep  string
	EditedStep    string
}

// buildPrompt renders the reflection request's system and user messages: the
// knowledge base, the task's goal, the steps around the change, the
// original and the edited dependency, and the protocol with the reply
// format that ParseReply reads.
func buildPrompt(r Request) (system, user string, err error) {
	c := r.Change
	d := promptData{
		Categories: r.KB.Categories,
		Rules:      r.KB.Rules,
		Mains:      strings.Join(kb.MainCategories(), ", "),
		File:       r.Filename,
		Task:       c.Task,
		Goal:       "(not stated)",
		Step:       c.Step,
		Kind:       c.Kind.String(),
		Original:   DepString(c.Original),
		Edited:     DepString(c.Edited),
	}
	if c.Original == nil {
		d.Original = "(no dependency)"
	}
	if c.Edited == nil {
		d.Edited = "(no dependency: the person removed it)"
	}
	for _, cat := range r.KB.Categories {
		for _, s := range cat.Subcategories {
			res := s.Result
			if res == "" {
				res = cat.Result
			}
			d.Subcategories = append(d.Subcategories, subData{cat.Name, s.Name, res, s.Definition, s.Examples})
		}
	}
	if c.OriginalStep != nil {
		d.OriginalStep = stepString(c.OriginalStep)
	}
	if c.EditedStep != nil {
		d.EditedStep = stepString(c.EditedStep)
	}
	file := r.Edited
	if c.EditedStep == nil {
		file = r.Original // the step is gone from the edited file
	}
	if t := findTask(file, c.Task); t != nil {
		if t.Goal != nil && t.Goal.Value != "" {
			d.Goal = t.Goal.Value
		}
		d.Steps = stepsAround(t.Body, c.Step)
	}
	var sys, usr strings.Builder
	if err := systemTmpl.Execute(&sys, nil); err != nil {
		return "", "", fmt.Errorf("rendering the system prompt: %w", err)
	}
	if err := reflectTmpl.Execute(&usr, d); err != nil {
		return "", "", fmt.Errorf("rendering the reflection prompt: %w", err)
	}
	return sys.String(), usr.String(), nil
}

// Ask sends the reflection request for one change and parses the reply
// strictly. The response is returned even when the reply does not parse,
// so that the caller can show what the model said.
func Ask(ctx context.Context, client llm.Client, model string, r Request) (*Reply, *llm.Response, error) {
	sys, usr, err := buildPrompt(r)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := client.Complete(ctx, llm.Request{
		Model:       model,
		Temperature: requestTemperature,
		Messages:    []llm.Message{{Role: "system", Content: sys}, {Role: "user", Content: usr}},
	})
	if err != nil {
		return nil, nil, err
	}
	reply, err := parseReply(resp.Text)
	return reply, resp, err
}

// findTask returns the task called name, or nil (a skill has no goal and
// is shown without one).
func findTask(f *ast.File, name string) *ast.Task {
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Task); ok && t.Name.Name == name {
			return t
		}
	}
	return nil
}

// stepsAround prints the steps of a body within stepWindow of the step
// called name, one per line, the changed one marked, loops indented.
func stepsAround(b *ast.Block, name string) string {
	type line struct {
		text string
		step bool
	}
	var lines []line
	var walk func(b *ast.Block, indent string)
	walk = func(b *ast.Block, indent string) {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ast.Step:
				text := indent + stepString(s)
				if s.Name.Name == name {
					text += "    <-- the corrected step"
				}
				lines = append(lines, line{text, true})
			case *ast.ForStmt:
				lines = append(lines, line{indent + "for " + s.Var.Name + " in " + printer.ExprString(s.Iter) + " {", false})
				walk(s.Body, indent+"  ")
				lines = append(lines, line{indent + "}", false})
			case *ast.RepeatStmt:
				lines = append(lines, line{indent + "repeat " + printer.ExprString(s.Count) + " {", false})
				walk(s.Body, indent+"  ")
				lines = append(lines, line{indent + "}", false})
			case *ast.WhileStmt:
				lines = append(lines, line{indent + printer.WhileHead(s) + " {", false})
				walk(s.Body, indent+"  ")
				lines = append(lines, line{indent + "}", false})
			case *ast.JumpStmt:
				lines = append(lines, line{indent + s.Word(), false})
			case *ast.TryStmt:
				lines = append(lines, line{indent + "try {", false})
				walk(s.Body, indent+"  ")
				lines = append(lines, line{indent + "} fallback {", false})
				walk(s.Fallback, indent+"  ")
				lines = append(lines, line{indent + "}", false})
			case *ast.ExploreStmt:
				lines = append(lines, line{indent + printer.ExploreHead(s) + " {", false})
				walk(s.Body, indent+"  ")
				lines = append(lines, line{indent + "}", false})
			case *ast.IfStmt:
				head := indent + "if "
				for c := s; c != nil; c = c.ElseIf {
					lines = append(lines, line{head + printer.ExprString(c.Cond) + " {", false})
					walk(c.Then, indent+"  ")
					head = indent + "} else if "
					if c.Else != nil {
						lines = append(lines, line{indent + "} else {", false})
						walk(c.Else, indent+"  ")
					}
				}
				lines = append(lines, line{indent + "}", false})
			}
		}
	}
	walk(b, "")
	at := -1
	for i, l := range lines {
		if l.step && strings.Contains(l.text, "<-- the corrected step") {
			at = i
		}
	}
	lo, hi := 0, len(lines)
	if at >= 0 {
		lo, hi = max(0, at-stepWindow), min(len(lines), at+stepWindow+1)
	}
	var out []string
	if lo > 0 {
		out = append(out, "…")
	}
	for _, l := range lines[lo:hi] {
		out = append(out, l.text)
	}
	if hi < len(lines) {
		out = append(out, "…")
	}
	return strings.ReplaceAll(strings.Join(out, "\n"), "```", "'''")
}

// stepString prints a step as the workflow writes it.
func stepString(s *ast.Step) string {
	text := s.Name.Name + " = " + printer.ExprString(s.Value)
	if s.Confirm {
		text = "confirm " + text
	}
	return text
}
