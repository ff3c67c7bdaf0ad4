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
)

// expand writes a snippet body as VS Code inserts it when every
// placeholder keeps its default and every choice its first option.
func expand(body string) string {
	body = placeholder.ReplaceAllString(body, "$1")
	body = choice.ReplaceAllString(body, "$1")
	return tabstop.ReplaceAllString(body, "")
}

// TestSnippetsCheck expands every snippet with its defaults, puts it where
// it belongs (a declaration at the top, a statement in a task, an
// expression in a step) and requires `cogflow check` to find no error, so
// that a snippet never inserts code that is wrong as it stands.
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
			code := expand(strings.Join(lines, "\n"))
			if strings.Contains(code, "$") {
				t.Fatalf("a placeholder is left after expanding: %q", code)
			}
			const step = "\top0 = open(\"http://127.0.0.1:8088/\")\n"
			var src string
			switch {
			case strings.HasPrefix(code, "task "):
				src = strings.Replace(code, "\n\t\n", "\n"+step, 1)
			case strings.HasPrefix(code, "skill "):
				src = strings.Replace(code, "\n\t\n", "\n\ts0 = click(target)\n", 1) +
					"\ntask t {\n\tdriver browser\n\ts1 = name(button(\"OK\"))\n}\n"
			case expressions[name]:
				src = fmt.Sprintf("task t {\n\tdriver browser\n%s\top1 = copy(%s)\n}\n", step, code)
			default:
				// Each empty body gets a step of its own name.
				n := 1
				body := regexp.MustCompile(`\n\t\n`).ReplaceAllStringFunc(code, func(string) string {
					n++
					return fmt.Sprintf("\n\top%d = back()\n", n)
				})
				src = fmt.Sprintf("task t {\n\tdriver browser\n%s\t%s\n}\n", step, strings.ReplaceAll(body, "\n", "\n\t"))
			}
			_, diags := cogflow.LoadSource(name+".cog", []byte(src), cogflow.Options{})
			if diags.HasErrors() {
				t.Errorf("snippet %q (prefix %q) does not check:\n%s\n%v", name, sn.Prefix, src, diags)
			}
		})
	}
}
