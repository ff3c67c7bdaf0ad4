package vscode_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cogflow/cogflow"
)

// The snippet syntax the snippets use: ${1:default}, ${1|a,b|} and $1.
var (
	placeholder = regexp.MustCompile(`\$\{\d+:([^}]*)\}`)
	choice      = regexp.MustCompile(`\$\{\d+\|([^,|]*)[^}]*\|\}`)
	tabstop     = regexp.MustCompile(`\$\d+`)
	choiceAll   = regexp.MustCompile(`\$\{\d+\|([^}|]*)\|\}`)
)

// expand writes a snippet body as VS Code inserts it when every
// placeholder keeps its default and every choice its first option.
func expand(body string) string {
	body = placeholder.ReplaceAllString(body, "$1")
	body = choice.ReplaceAllString(body, "$1")
	return tabstop.ReplaceAllString(body, "")
}

// choices returns the body as expand sees it, then once more for each
// option of each choice after its first (the other choices at their
// first), each with the option it picks: a person may pick any of them.
func choices(body string) (bodies, picked []string) {
	bodies, picked = []string{body}, []string{"(the first options)"}
	for _, m := range choiceAll.FindAllStringSubmatchIndex(body, -1) {
		options := strings.Split(body[m[2]:m[3]], ",")
		for _, o := range options[1:] {
			bodies = append(bodies, body[:m[0]]+o+body[m[1]:])
			picked = append(picked, o)
		}
	}
	return bodies, picked
}

// TestSnippetsCheck expands every snippet with its defaults, and once
// with each option of each of its choices, puts it where it belongs (a
// declaration at the top, a statement in a task, an expression in a step)
// and requires `cogflow check` to find no error, so that a snippet never
// inserts code that is wrong as it stands, whichever option is picked.
func TestSnippetsCheck(t *testing.T) {
	data, err := os.ReadFile("snippets/cogflow.code-snippets")
	if err != nil {
		t.Fatal(err)
	}
	var snippets map[string]struct {
		Prefix string          `json:"prefix"`
		Body   json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(data, &snippets); err != nil {
		t.Fatalf("snippets/cogflow.code-snippets: %v", err)
	}
	expressions := map[string]bool{"dependency": true}
	if len(snippets) < 10 {
		t.Fatalf("only %d snippets", len(snippets))
	}
	for name, sn := range snippets {
		t.Run(name, func(t *testing.T) {
			var lines []string
			if err := json.Unmarshal(sn.Body, &lines); err != nil {
				var one string
				if err := json.Unmarshal(sn.Body, &one); err != nil {
					t.Fatalf("body is neither a string nor a list of strings: %s", sn.Body)
				}
				lines = []string{one}
			}
			bodies, picked := choices(strings.Join(lines, "\n"))
			for i, body := range bodies {
				code := expand(body)
				if strings.Contains(code, "$") {
					t.Fatalf("a placeholder is left after expanding: %q", code)
				}
				src := place(code, expressions[name])
				_, diags := cogflow.LoadSource(name+".cog", []byte(src), cogflow.Options{})
				if diags.HasErrors() {
					t.Errorf("snippet %q (prefix %q) with the choice %q does not check:\n%s\n%v", name, sn.Prefix, picked[i], src, diags)
				}
			}
		})
	}
}

// place puts the expanded snippet code where it belongs: a declaration at
// the top, an expression in a step, a statement in a task.
func place(code string, expression bool) string {
	const step = "\top0 = open(\"http://127.0.0.1:8088/\")\n"
	switch {
	case strings.HasPrefix(code, "task "):
		return strings.Replace(code, "\n\t\n", "\n"+step, 1)
	case strings.HasPrefix(code, "skill "):
		// The skill's body uses no parameter: a parameter of any type
		// the snippet offers is then as right as another.
		return strings.Replace(code, "\n\t\n", "\n\ts0 = back()\n", 1) +
			"\ntask t {\n\tdriver browser\n" + step + "}\n"
	case expression:
		return fmt.Sprintf("task t {\n\tdriver browser\n%s\top1 = copy(%s)\n}\n", step, code)
	}
	// Each empty body gets a step of its own name.
	n := 1
	body := regexp.MustCompile(`\n\t\n`).ReplaceAllStringFunc(code, func(string) string {
		n++
		return fmt.Sprintf("\n\top%d = back()\n", n)
	})
	return fmt.Sprintf("task t {\n\tdriver browser\n%s\t%s\n}\n", step, strings.ReplaceAll(body, "\n", "\n\t"))
}
