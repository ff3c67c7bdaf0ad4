package check_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
)

// docBlock is a fenced code block of docs/language.md.
type docBlock struct {
	line int    // line of the opening fence
	tag  string // "cog" or "cog-error"
	src  string
}

func docBlocks(t *testing.T) []docBlock { return docBlocksOf(t, "../../docs/language.md") }

// docBlocksOf reads the fenced cog blocks of a doc page.
func docBlocksOf(t *testing.T, path string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []docBlock
	var cur *docBlock
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case cur == nil && (line == "```cog" || line == "```cog-error"):
			cur = &docBlock{line: i + 1, tag: strings.TrimPrefix(line, "```")}
		case cur != nil && line == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.src += line + "\n"
		}
	}
	return blocks
}

func checkSource(name, src string) diag.List {
	f, diags := syntax.Parse(name, []byte(src))
	if f != nil {
		_, more := check.Check(f, testEnv())
		diags = append(diags, more...)
	}
	diags.Sort()
	return diags
}

// TestDocExamplesCheck: every ```cog block of the language reference is a
// complete workflow that checks without a diagnostic and is in canonical
// layout, so the reference cannot drift from the implementation.
func TestDocExamplesCheck(t *testing.T) {
	n := 0
	for _, b := range docBlocks(t) {
		if b.tag != "cog" {
			continue
		}
		n++
		name := fmt.Sprintf("language.md:%d", b.line)
		diags := checkSource(name, b.src)
		for _, d := range diags {
			t.Errorf("%s: block at line %d: %s", name, b.line, d)
		}
		if f, _ := syntax.Parse(name, []byte(b.src)); f != nil {
			if got := string(printer.Format(f)); got != b.src {
				t.Errorf("block at line %d is not in canonical layout:\n%s", b.line, got)
			}
		}
	}
	if n < 10 {
		t.Errorf("found %d cog blocks, the reference should have one per section", n)
	}
}

// TestSkillsDocExamplesCheck: the ```cog blocks of docs/skills.md, which
// call the shipped skill libraries, check and are in canonical layout.
func TestSkillsDocExamplesCheck(t *testing.T) {
	blocks := docBlocksOf(t, "../../docs/skills.md")
	if len(blocks) < 3 {
		t.Fatalf("docs/skills.md has %d cog blocks; one per driver at least", len(blocks))
	}
	for _, b := range blocks {
		name := fmt.Sprintf("skills.md:%d", b.line)
		for _, d := range checkSource(name, b.src) {
			t.Errorf("%s: %s", name, d)
		}
		if f, _ := syntax.Parse(name, []byte(b.src)); f != nil {
			if got := string(printer.Format(f)); got != b.src {
				t.Errorf("block at line %d is not in canonical layout:\n%s", b.line, got)
			}
		}
	}
}

// TestDocErrorExamples: in ```cog-error blocks each `# error: …` or
// `# warning: …` comment states a diagnostic expected on the line above it;
// all of them must appear, and nothing else.
func TestDocErrorExamples(t *testing.T) {
	n := 0
	for _, b := range docBlocks(t) {
		if b.tag != "cog-error" {
			continue
		}
		n++
		name := fmt.Sprintf("language.md:%d", b.line)
		diags := checkSource(name, b.src)
		used := make([]bool, len(diags))
		for i, line := range strings.Split(b.src, "\n") {
			trimmed := strings.TrimSpace(line)
			var sev, msg string
			for _, s := range []string{"error", "warning"} {
				if rest, ok := strings.CutPrefix(trimmed, "# "+s+": "); ok {
					sev, msg = s, rest
				}
			}
			if sev == "" {
				continue
			}
			found := false
			for j, d := range diags {
				if d.Range.Start.Line == i && d.Severity.String() == sev && strings.Contains(d.Message, msg) {
					used[j], found = true, true
				}
			}
			if !found {
				t.Errorf("block at line %d: expected %s %q on its line %d, got %v", b.line, sev, msg, i, diags)
			}
		}
		for j, d := range diags {
			if !used[j] {
				t.Errorf("block at line %d: unexpected diagnostic %s", b.line, d)
			}
		}
	}
	if n == 0 {
		t.Error("no cog-error blocks found")
	}
}
