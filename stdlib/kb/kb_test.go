package kb

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/stdlib"
)

func TestDefault(t *testing.T) {
	k := Default()
	if k.Version != 1 {
		t.Errorf("Version = %d, want 1", k.Version)
	}
	if !slices.Contains(k.Irreversible, "delete") || !slices.Contains(k.Irreversible, "place order") {
		t.Errorf("Irreversible = %v, want delete and place order among them", k.Irreversible)
	}
	var names []string
	for _, c := range k.Categories {
		names = append(names, c.Name)
		if c.Definition == "" || !IsResultType(c.Result) {
			t.Errorf("category %s: definition %q, result %q", c.Name, c.Definition, c.Result)
		}
	}
	if !slices.Equal(names, MainCategories()) {
		t.Errorf("categories = %v, want %v", names, MainCategories())
	}
	subs := k.SubcategoryNames()
	if len(subs) < 15 {
		t.Errorf("%d subcategories, want at least 15", len(subs))
	}
	if !slices.IsSorted(subs) {
		t.Errorf("SubcategoryNames not sorted: %v", subs)
	}
	for _, c := range k.Categories {
		for _, s := range c.Subcategories {
			if len(s.Examples) != 2 {
				t.Errorf("%s: %d examples, want exactly 2", s.Name, len(s.Examples))
			}
			if s.Definition == "" {
				t.Errorf("%s: empty definition", s.Name)
			}
		}
	}
	if n := len(k.Rules); n < 8 || n > 14 {
		t.Errorf("%d rules, want 8 to 14", n)
	}
	if Default() == k {
		t.Error("Default returned a shared KB; callers may modify theirs")
	}
}

func TestDefaultParsesWithoutWarnings(t *testing.T) {
	_, diags := Parse(stdlib.KnowledgeHCL, stdlib.KnowledgeFilename)
	for _, d := range diags {
		t.Errorf("default knowledge base: %s", d)
	}
}

func TestDefaultRoundTripExact(t *testing.T) {
	got := Default().Format()
	if !bytes.Equal(got, stdlib.KnowledgeHCL) {
		t.Errorf("Format(Parse(%s)) differs from the file; write it back in canonical form:\n%s",
			stdlib.KnowledgeFilename, got)
	}
}

// TestDefaultExamples checks that every example is a dependency on its own
// subcategory: [main.]sub<"description">(args).
func TestDefaultExamples(t *testing.T) {
	re := regexp.MustCompile(`^(?:([a-z_]+)\.)?([a-z_]+)<"([^"\\]|\\.)+">\((?:[a-z_][a-z0-9_.]*(?:, [a-z_][a-z0-9_.]*)*)?\)$`)
	for _, c := range Default().Categories {
		for _, s := range c.Subcategories {
			for _, ex := range s.Examples {
				m := re.FindStringSubmatch(ex)
				switch {
				case m == nil:
					t.Errorf("%s: example %q is not [main.]sub<\"...\">(...)", s.Name, ex)
				case m[2] != s.Name:
					t.Errorf("%s: example %q names %q", s.Name, ex, m[2])
				case m[1] != "" && m[1] != c.Name:
					t.Errorf("%s: example %q qualifies it with %q, not %q", s.Name, ex, m[1], c.Name)
				}
			}
		}
	}
}

func TestResultOf(t *testing.T) {
	k := Default()
	for _, tc := range []struct{ sub, want string }{
		{"match_element", ResultElement},
		{"contextual_selection.match_element", ResultElement},
		{"match_text", ResultText},
		{"contextual_selection.match_text", ResultText},
		{"calculate", ResultNumber},
		{"logical_reasoning.calculate", ResultNumber},
		{"compare", ResultText},
		{"summarize", ResultText},
		{"extract_information", ResultText},
		{"generate", ResultText},
		{"contextual_selection.pick_icon", ResultElement}, // new subcategory: category default
		{"logical_reasoning.rank", ResultText},
		{"no_such_thing", ""},
		{"information_recall.summarize", ""}, // wrong main category
		{"nowhere.summarize", ""},
		{"", ""},
	} {
		if got := k.ResultOf(tc.sub); got != tc.want {
			t.Errorf("ResultOf(%q) = %q, want %q", tc.sub, got, tc.want)
		}
	}
}

func TestLookup(t *testing.T) {
	k := Default()
	for _, tc := range []struct {
		sub, main string
		ok        bool
	}{
		{"summarize", "information_comprehension", true},
		{"information_comprehension.summarize", "information_comprehension", true},
		{"repeat", "information_recall", true},
		{"extract_information", "information_recall", true},
		{"polish_text", "information_creation", true},
		{"evaluation", "logical_reasoning", true},
		{"match_element", "contextual_selection", true},
		{"logical_reasoning.summarize", "", false},
		{"information_recall", "", false}, // a main category is not a subcategory
		{"summarise", "", false},
	} {
		c, s, ok := k.Lookup(tc.sub)
		main, mok := k.MainOf(tc.sub)
		if ok != tc.ok || mok != tc.ok || main != tc.main {
			t.Errorf("Lookup/MainOf(%q) = %v/%q,%v, want %q,%v", tc.sub, ok, main, mok, tc.main, tc.ok)
			continue
		}
		if ok && (c.Name != tc.main || !strings.HasSuffix(tc.sub, s.Name)) {
			t.Errorf("Lookup(%q) = %s.%s", tc.sub, c.Name, s.Name)
		}
	}
	for _, name := range MainCategories() {
		if !k.IsMain(name) {
			t.Errorf("IsMain(%q) = false", name)
		}
	}
	for _, name := range []string{"summarize", "", "information", "Information_recall"} {
		if k.IsMain(name) {
			t.Errorf("IsMain(%q) = true", name)
		}
	}
	var nilKB *KB
	if _, _, ok := nilKB.Lookup("summarize"); ok || nilKB.ResultOf("x.y") != "" || nilKB.SubcategoryNames() != nil {
		t.Error("lookups on a nil KB should find nothing")
	}
}

func TestClosest(t *testing.T) {
	k := Default()
	for _, tc := range []struct {
		name  string
		n     int
		first string // "" means no suggestion
	}{
		{"sumarize", 3, "summarize"},
		{"summarise", 1, "summarize"},
		{"information_comprehension.sumarize", 3, "summarize"},
		{"match_elemnt", 2, "match_element"},
		{"calcualte", 3, "calculate"},
		{"extract_infomation", 3, "extract_information"},
		{"extract", 3, ""},   // too far: a prefix is not a typo
		{"translate", 1, ""}, // a known name is not a suggestion
		{"zzzzzzzzzz", 3, ""},
		{"sumarize", 0, ""},
	} {
		got := k.Closest(tc.name, tc.n)
		if len(got) > max(tc.n, 0) {
			t.Errorf("Closest(%q, %d) = %v: too many", tc.name, tc.n, got)
		}
		switch {
		case tc.first == "" && len(got) != 0:
			t.Errorf("Closest(%q, %d) = %v, want none", tc.name, tc.n, got)
		case tc.first != "" && (len(got) == 0 || got[0] != tc.first):
			t.Errorf("Closest(%q, %d) = %v, want %q first", tc.name, tc.n, got, tc.first)
		}
	}
}

// small returns a minimal valid knowledge base: one subcategory per main
// category, one rule.
func small() *KB {
	sub := func(name, result string) *Subcategory {
		return &Subcategory{Name: name, Definition: "Do " + name + ".", Result: result,
			Examples: []string{name + `<"a">(op1)`, name + `<"b">()`}}
	}
	cat := func(name, result string, subs ...*Subcategory) *Category {
		return &Category{Name: name, Definition: "All " + name + ".", Result: result, Subcategories: subs}
	}
	return &KB{
		Version: 1,
		Categories: []*Category{
			cat("information_recall", "text", sub("repeat", "text")),
			cat("information_comprehension", "text", sub("summarize", "text")),
			cat("information_creation", "text", sub("generate", "text")),
			cat("logical_reasoning", "text", sub("calculate", "number")),
			cat("contextual_selection", "element", sub("match_element", "element")),
		},
		Rules: []*Rule{{ID: "1", Text: "Be careful."}},
	}
}

func TestSmallIsValid(t *testing.T) {
	src := small().Format()
	k, diags := Parse(src, "small.hcl")
	if len(diags) > 0 {
		t.Fatalf("%s\n%s", diags, src)
	}
	if !reflect.DeepEqual(k, small()) {
		t.Errorf("Parse(Format(small())) differs from small()")
	}
}

// TestParseDiagnostics applies each edit to small()'s canonical text; the line
// marked "# HERE" must carry a diagnostic of the given severity whose summary
// contains want.
func TestParseDiagnostics(t *testing.T) {
	base := string(small().Format())
	const repeatDef = `definition = "Do repeat."`
	const repeatExamples = "examples = [\n      \"repeat<\\\"a\\\">(op1)\",\n      \"repeat<\\\"b\\\">()\",\n    ]"
	if !strings.Contains(base, repeatDef) || !strings.Contains(base, repeatExamples) {
		t.Fatalf("unexpected canonical form:\n%s", base)
	}
	warning := diag.Warning
	for _, tc := range []struct {
		name     string
		old, new string // replace the first old by new; old "" appends new
		want     string
		severity diag.Severity // zero value is diag.Error
	}{
		{"syntax error", "version = 1", "version = = 1 # HERE", "Invalid expression", 0},
		{"unclosed block", "", "rule \"9\" { # HERE", "Unclosed configuration block", 0},
		{"unknown attribute", repeatDef, repeatDef + "\n    color = \"red\" # HERE", "Unsupported argument", 0},
		{"unknown block", "", "widget \"x\" { # HERE\n}", "Unsupported block type", 0},
		{"missing version", "version = 1", "# HERE", "Missing required argument", 0},
		{"missing definition", "category \"information_creation\" {\n  definition = \"All information_creation.\"",
			"category \"information_creation\" { # HERE", "Missing required argument", 0},
		{"missing examples", repeatExamples, "# HERE is the block above", "Missing required argument", 0},
		{"empty category", "\n  subcategory \"repeat\" {\n    " + repeatDef + "\n    " + repeatExamples + "\n  }\n", "\n# HERE is the category\n", "Empty category", warning},
		{"unknown main category", `category "logical_reasoning" {`, `category "logical_reasonin" { # HERE`, "Unknown main category", 0},
		{"missing main category", "version = 1", "version = 1 # HERE\n", "Missing main category", 0},
		{"duplicate category", "", "category \"information_recall\" { # HERE\n  definition = \"x\"\n  result = \"text\"\n}", "Duplicate category", 0},
		{"duplicate subcategory across categories", `subcategory "summarize" {`, `subcategory "repeat" { # HERE`, "Duplicate subcategory", 0},
		{"subcategory named like a main category", `subcategory "generate" {`, `subcategory "logical_reasoning" { # HERE`, "Invalid subcategory name", 0},
		{"subcategory name not an identifier", `subcategory "generate" {`, `subcategory "two words" { # HERE`, "Invalid subcategory name", 0},
		{"bad category result", `result     = "element"`, `result     = "widget" # HERE`, "Unknown result type", 0},
		{"bad subcategory result", repeatDef, repeatDef + "\n    result = \"boolean\" # HERE", "Unknown result type", 0},
		{"one example", repeatExamples, `examples = ["repeat<\"a\">(op1)"] # HERE`, "Too few examples", 0},
		{"no examples", repeatExamples, `examples = [] # HERE`, "Too few examples", 0},
		{"null examples", repeatExamples, `examples = null # HERE`, "Invalid value", 0},
		{"empty example", repeatExamples, `examples = ["repeat<\"a\">(op1)", " "] # HERE`, "Empty example", 0},
		{"examples not a list", repeatExamples, `examples = "repeat" # HERE`, "Invalid value", 0},
		{"duplicate rule ID", "", "rule \"1\" { # HERE\n  text = \"Again.\"\n}", "Duplicate rule ID", 0},
		{"rule ID not a number", "", "rule \"one\" { # HERE\n  text = \"Again.\"\n}", "Invalid rule ID", 0},
		{"rule ID with leading zero", "", "rule \"01\" { # HERE\n  text = \"Again.\"\n}", "Invalid rule ID", 0},
		{"empty rule text", `text = "Be careful."`, `text = "" # HERE`, "Empty text", 0},
		{"unsupported version", "version = 1", "version = 2 # HERE", "Unsupported knowledge base version", 0},
		{"fractional version", "version = 1", "version = 1.5 # HERE", "Unsupported knowledge base version", 0},
		{"version not a number", "version = 1", `version = "one" # HERE`, "Invalid value", 0},
		{"empty irreversible word", "version = 1", "version = 1\nirreversible = [\"send\", \"\"] # HERE", "Empty word", 0},
		{"irreversible not a list", "version = 1", "version = 1\nirreversible = \"send\" # HERE", "Invalid value", 0},
		{"variable", repeatDef, "definition = repeat # HERE", "Variables not allowed", 0},
		{"function call", repeatDef, `definition = upper("x") # HERE`, "Function calls not allowed", 0},
		{"example of another subcategory", repeatExamples, `examples = ["repeat<\"a\">(op1)", "summarize<\"b\">(op1)"] # HERE`, "Example not in dependency form", warning},
		{"bad example on its own line", `"repeat<\"b\">()",`, `"repeat<\"b\">() ", # HERE`, "Example not in dependency form", warning},
		{"empty example on its own line", `"repeat<\"b\">()",`, `"", # HERE`, "Empty example", 0},
		{"example with a wrong qualifier", repeatExamples, `examples = ["repeat<\"a\">(op1)", "logical_reasoning.repeat<\"b\">()"] # HERE`, "Example not in dependency form", warning},
		{"example without a description", repeatExamples, `examples = ["repeat<\"a\">(op1)", "repeat(op1)"] # HERE`, "Example not in dependency form", warning},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := base + "\n" + tc.new + "\n"
			if tc.old != "" {
				if !strings.Contains(base, tc.old) {
					t.Fatalf("%q not in the base text", tc.old)
				}
				src = strings.Replace(base, tc.old, tc.new, 1)
			}
			if tc.name == "missing main category" {
				src = src[:strings.Index(src, `category "contextual_selection"`)] + src[strings.Index(src, "rule "):]
			}
			line := markedLine(src)
			switch tc.name {
			case "missing examples":
				line = lineOf(src, `subcategory "repeat"`)
			case "empty category":
				line = lineOf(src, `category "information_recall"`)
			}
			severity := tc.severity
			k, diags := Parse([]byte(src), "test.hcl")
			if !hasDiag(diags, severity, tc.want, line) {
				t.Errorf("want %s %q at test.hcl:%d, got:\n%v\nsource:\n%s", severity, tc.want, line, diag.ListError(diags), numbered(src))
			}
			if (k == nil) != diags.HasErrors() {
				t.Errorf("KB is %v with errors=%v", k, diags.HasErrors())
			}
		})
	}
}

// hasDiag reports a diagnostic of severity sev whose message begins with
// holds summary (HCL's summary, first letter lower-cased by the conversion) at
// line of test.hcl.
func hasDiag(diags diag.List, sev diag.Severity, summary string, line int) bool {
	for _, d := range diags {
		if d.Severity == sev && strings.Contains(strings.ToLower(d.Message), strings.ToLower(summary)) &&
			d.Range.Filename == "test.hcl" && d.Range.Start.Line == line {
			return true
		}
	}
	return false
}

// markedLine returns the 1-based line holding "# HERE".
func markedLine(src string) int { return lineOf(src, "# HERE") }

func lineOf(src, s string) int {
	i := strings.Index(src, s)
	if i < 0 {
		return -1
	}
	return strings.Count(src[:i], "\n") + 1
}

func numbered(src string) string {
	var b strings.Builder
	for i, line := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%3d  %s\n", i+1, line)
	}
	return b.String()
}

func TestFormatRoundTripsAwkwardStrings(t *testing.T) {
	k := small()
	k.Header = []string{"A header.", "", "  indented", "/* not a block */"}
	k.Categories[0].Definition = "quotes \" backslash \\ tab \t newline \n cr \r"
	k.Categories[1].Definition = "templates ${var} %{if x} $${y} %%{z} $ % ${ %{"
	k.Categories[2].Definition = "unicode ünïcödé ✓ 𝄞, controls \x00 \x1b \u2028 \U000E0001"
	k.Categories[3].Subcategories[0].Examples = []string{`calculate<"a \"quoted\" one">(op1)`, `calculate<"b">()`}
	k.Rules = append(k.Rules, &Rule{ID: "2", Text: "Trailing dollar $"}, &Rule{ID: "10", Text: "Ten."})
	src := k.Format()
	back, diags := Parse(src, "awkward.hcl")
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags, src)
	}
	if !reflect.DeepEqual(back, k) {
		t.Errorf("round trip changed the KB:\n%s", src)
	}
	if again := back.Format(); !bytes.Equal(again, src) {
		t.Errorf("Format is not stable:\n%s\n---\n%s", src, again)
	}
}

func TestParseNormalizesOrder(t *testing.T) {
	k := small()
	k.Categories[0], k.Categories[4] = k.Categories[4], k.Categories[0]
	k.Rules = []*Rule{{ID: "10", Text: "Ten."}, {ID: "2", Text: "Two."}, {ID: "1", Text: "One."}}
	back, diags := Parse(k.Format(), "order.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var names, ids []string
	for _, c := range back.Categories {
		names = append(names, c.Name)
	}
	for _, r := range back.Rules {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(names, MainCategories()) || !slices.Equal(ids, []string{"1", "2", "10"}) {
		t.Errorf("order: categories %v, rules %v", names, ids)
	}
}

func TestHeaderComment(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"version = 1\n", nil},
		{"# one\n#\n#   two\n\n# three\nversion = 1 # not header\n", []string{"one", "", "  two", "three"}},
		{"// slashes\n/* block\n   comment */\nversion = 1\n", []string{"slashes", "block", "  comment"}},
		{"#no space  \r\nversion = 1\n", []string{"no space"}},
	} {
		if got := headerComment([]byte(tc.src), "h.hcl"); !slices.Equal(got, tc.want) {
			t.Errorf("headerComment(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kb.hcl")
	if err := os.WriteFile(path, stdlib.KnowledgeHCL, 0o644); err != nil {
		t.Fatal(err)
	}
	k, diags := Load(path)
	if len(diags) > 0 || !reflect.DeepEqual(k, Default()) {
		t.Errorf("Load(copy of default) = %v", diags)
	}
	if err := os.WriteFile(path, []byte("version = 1\ncategory \"x\" {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if k, diags := Load(path); k != nil || !diags.HasErrors() || diags[0].Range.Filename != path {
		t.Errorf("Load(broken) = %v, %v", k, diags)
	}
	if k, diags := Load(filepath.Join(dir, "missing.hcl")); k != nil || !diags.HasErrors() {
		t.Errorf("Load(missing) = %v, %v", k, diags)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(stdlib.KnowledgeHCL)
	f.Add(small().Format())
	f.Add([]byte("version = 1\ncategory \"information_recall\" {\n  subcategory \"a\" {}\n}\n"))
	f.Add([]byte(`version = [for x in y: x]` + "\n" + `rule "1" { text = "${x}" }`))
	f.Add([]byte("/* unterminated"))
	f.Add([]byte("# h\n\nversion = 1\n# c\n/* d */\ncategory \"information_recall\" { # t\n  # s\n  subcategory \"a\" {}\n}\n\n# r\n\nrule \"1\" {}\n"))
	f.Add([]byte("version = 1e400\n"))
	f.Add([]byte("version = " + strings.Repeat("[", 200) + "\n"))
	f.Add([]byte("version = x" + strings.Repeat(".a", 200) + "\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		k, diags := Parse(src, "fuzz.hcl")
		for _, d := range diags {
			if strings.HasPrefix(strings.ToLower(d.Message), strings.ToLower(internalErrorSummary)) {
				t.Fatalf("Parse panicked: %s", d.Message)
			}
		}
		if k == nil {
			return
		}
		// Whatever Parse accepts, Format must write back faithfully.
		out := k.Format()
		back, diags := Parse(out, "formatted.hcl")
		if diags.HasErrors() {
			t.Fatalf("Format output does not parse: %s\n%s", diags, out)
		}
		if !reflect.DeepEqual(back, k) {
			t.Fatalf("Parse(Format(k)) != k\n%s", out)
		}
	})
}
