// Package patch edits a workflow's source the way a healed run proposes
// it: it inserts steps before a step, with fresh names, keeping every
// comment of the file and, when the file was in the canonical layout,
// that layout (lang/printer). It knows nothing of runs or drivers: the
// caller says which step and which operations.
package patch

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
)

// Step is one operation to insert, in the language's own words: an action
// name, its target as an element description in .cog syntax (e.g.
// `button(name: "More")`, "" for none) and its text argument ("" for
// none).
type Step struct {
	Op, Target, Text string
}

// Insertion puts Steps before the step named Before that starts on Line
// (both must agree, so a patch made for another version of the file is
// refused rather than put in the wrong place). Note, when not empty,
// becomes a comment line above the inserted steps.
type Insertion struct {
	Before string
	Line   int
	Steps  []Step
	Note   string
}

// Apply returns src with the insertions made. The result must parse: an
// insertion whose operations do not make valid steps is an error, and so
// is a source that does not parse. Names of inserted steps are made from
// the operation and the target's first quoted word (click_more), with a
// number added when the file already uses the name.
func Apply(filename string, src []byte, ins []Insertion) ([]byte, error) {
	f, diags := syntax.Parse(filename, src)
	if f == nil || diags.HasErrors() {
		return nil, fmt.Errorf("%s does not parse: %v", filename, diags)
	}
	canonical := bytes.Equal(printer.Format(f), src)
	taken := identifiers(src)
	type at struct {
		offset int
		text   string
	}
	var edits []at
	for _, in := range ins {
		s := findStep(f, in.Before, in.Line)
		if s == nil {
			return nil, fmt.Errorf("%s: no step %s at line %d (the file changed since the run?)", filename, in.Before, in.Line)
		}
		start := s.Range.Start
		if c := s.Comments.Leading; len(c) > 0 {
			start = c[0].Range.Start // the step's own comments stay with it
		}
		lineStart := bytes.LastIndexByte(src[:start.Offset], '\n') + 1
		indent := src[lineStart:start.Offset]
		if len(bytes.TrimLeft(indent, " \t")) != 0 {
			return nil, fmt.Errorf("%s:%d: step %s does not start its line", filename, in.Line, in.Before)
		}
		var b strings.Builder
		if in.Note != "" {
			for _, line := range strings.Split(in.Note, "\n") {
				fmt.Fprintf(&b, "%s# %s\n", indent, line)
			}
		}
		for _, st := range in.Steps {
			name := freshName(st, taken)
			taken[name] = true
			fmt.Fprintf(&b, "%s%s = %s\n", indent, name, Source(st))
		}
		edits = append(edits, at{lineStart, b.String()})
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].offset > edits[j].offset })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.offset], append([]byte(e.text), out[e.offset:]...)...)
	}
	g, diags := syntax.Parse(filename, out)
	if g == nil || diags.HasErrors() {
		return nil, fmt.Errorf("the patched %s does not parse: %v", filename, diags)
	}
	if canonical {
		out = printer.Format(g)
	}
	return out, nil
}

// Source is the call a Step stands for: op(target, "text").
func Source(s Step) string {
	var args []string
	if s.Target != "" {
		args = append(args, s.Target)
	}
	if s.Text != "" {
		args = append(args, printer.ExprString(&ast.StringLit{Value: s.Text}))
	}
	return s.Op + "(" + strings.Join(args, ", ") + ")"
}

// findStep finds the step named name that starts on line, in any task or
// skill, at any depth.
func findStep(f *ast.File, name string, line int) *ast.Step {
	var walk func(b *ast.Block) *ast.Step
	walk = func(b *ast.Block) *ast.Step {
		if b == nil {
			return nil
		}
		for _, st := range b.Stmts {
			if s, ok := st.(*ast.Step); ok && s.Name.Name == name && s.Range.Start.Line == line {
				return s
			}
			for _, body := range ast.Bodies(st) {
				if s := walk(body); s != nil {
					return s
				}
			}
		}
		return nil
	}
	for _, b := range f.Bodies() {
		if s := walk(b); s != nil {
			return s
		}
	}
	return nil
}

var (
	identRE  = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	quotedRE = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	nonWord  = regexp.MustCompile(`[^a-z0-9]+`)
)

// identifiers is every word of the source: more than the names it
// declares, which only makes the fresh names safer.
func identifiers(src []byte) map[string]bool {
	out := map[string]bool{}
	for _, w := range identRE.FindAll(src, -1) {
		out[string(w)] = true
	}
	return out
}

// freshName names an inserted step after what it does, e.g. click_more
// for click(button(name: "More")), numbered when taken.
func freshName(s Step, taken map[string]bool) string {
	word := s.Text
	if m := quotedRE.FindStringSubmatch(s.Target); m != nil {
		if u, err := strconv.Unquote(`"` + m[1] + `"`); err == nil {
			word = u
		}
	}
	slug := strings.Trim(nonWord.ReplaceAllString(strings.ToLower(word), "_"), "_")
	if len(slug) > 24 {
		slug = strings.TrimRight(slug[:24], "_")
	}
	op := strings.ToLower(nonWord.ReplaceAllString(s.Op, "_"))
	base := op
	if slug != "" {
		base += "_" + slug
	}
	if base == "" || !(base[0] >= 'a' && base[0] <= 'z') {
		base = "step_" + base
	}
	name := base
	for n := 2; taken[name]; n++ {
		name = base + strconv.Itoa(n)
	}
	return name
}
