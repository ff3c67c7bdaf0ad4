package kb

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestCheckExample(t *testing.T) {
	const main, sub = "information_comprehension", "summarize"
	for _, tc := range []struct {
		example string
		err     string // "" for a valid example
	}{
		{`summarize<"the paragraph in one sentence">(op5)`, ""},
		{`information_comprehension.summarize<"a">(op5, op2)`, ""},
		{`summarize<"from the screen">()`, ""},
		{`summarize<"a \"quoted\" word">(row.cell("Title"))`, ""},
		{`logical_reasoning.summarize<"a">(op5)`, "belongs to information_comprehension"},
		{`translate<"a">(op5)`, "not on summarize"},
		{`summarize<"">(op5)`, "no description"},
		{`summarize(op5)`, "not one dependency"},
		{`summarize<"a">(op5) + "x"`, "not one dependency"},
		{`summarize<"a">(op5)) + use(x`, "not one dependency"},
		{`summarize<"a">(op5`, "does not parse"},
		{"summarize<\"a\">(op5)\nsummarize<\"b\">()", "not one line"},
	} {
		err := CheckExample(main, sub, tc.example)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("CheckExample(%q) = %v, want nil", tc.example, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("CheckExample(%q) = %v, want an error containing %q", tc.example, err, tc.err)
		}
	}
}

// TestEdits applies one edit to the default knowledge base: a valid edit
// must leave a knowledge base that formats into a file that parses back
// equal; an invalid one must fail with a clear error and change nothing.
func TestEdits(t *testing.T) {
	newSub := func(name string, examples ...string) *Subcategory {
		return &Subcategory{Name: name, Definition: "Pick the cheapest of several offers.", Examples: examples}
	}
	cheap1 := `cheapest_offer<"the cheapest flight in the results">(op3)`
	cheap2 := `logical_reasoning.cheapest_offer<"the lowest price among the offers">()`
	for _, tc := range []struct {
		name  string
		edit  func(k *KB) error
		err   string // "" for a valid edit
		check func(t *testing.T, k *KB)
	}{
		{"add subcategory", func(k *KB) error {
			return k.AddSubcategory("logical_reasoning", newSub("cheapest_offer", cheap1, cheap2))
		}, "",
			func(t *testing.T, k *KB) {
				c, s, ok := k.Lookup("cheapest_offer")
				if !ok || c.Name != "logical_reasoning" || s.Result != "text" || c.Subcategories[len(c.Subcategories)-1] != s {
					t.Errorf("not added at the end of logical_reasoning: %v %+v", ok, s)
				}
			}},
		{"add to unknown main", func(k *KB) error {
			return k.AddSubcategory("logical_reasonin", newSub("cheapest_offer", cheap1, cheap2))
		}, `did you mean "logical_reasoning"`, nil},
		{"add a main category as a subcategory", func(k *KB) error {
			return k.AddSubcategory("logical_reasoning", newSub("information_recall", `information_recall<"a">()`, `information_recall<"b">()`))
		}, "is a main category", nil},
		{"add existing name", func(k *KB) error {
			return k.AddSubcategory("logical_reasoning", newSub("summarize", `summarize<"a">()`, `summarize<"b">()`))
		}, "already exists in information_comprehension", nil},
		{"add bad name", func(k *KB) error {
			return k.AddSubcategory("logical_reasoning", newSub("cheapest-offer", cheap1, cheap2))
		}, "not a valid subcategory name", nil},
		{"add one example", func(k *KB) error { return k.AddSubcategory("logical_reasoning", newSub("cheapest_offer", cheap1)) }, "at least 2 examples", nil},
		{"add example of another subcategory", func(k *KB) error {
			return k.AddSubcategory("logical_reasoning", newSub("cheapest_offer", cheap1, `compare<"a">(op1)`))
		}, "example 2: \"compare<\\\"a\\\">(op1)\" is a dependency on compare", nil},
		{"add example qualified wrongly", func(k *KB) error {
			return k.AddSubcategory("logical_reasoning", newSub("cheapest_offer", cheap1, `contextual_selection.cheapest_offer<"a">()`))
		}, "belongs to logical_reasoning", nil},
		{"add repeated example", func(k *KB) error {
			return k.AddSubcategory("logical_reasoning", newSub("cheapest_offer", cheap1, cheap1))
		}, "repeats example 1", nil},
		{"add two-line definition", func(k *KB) error {
			s := newSub("cheapest_offer", cheap1, cheap2)
			s.Definition = "One.\nTwo."
			return k.AddSubcategory("logical_reasoning", s)
		}, "must be one line", nil},
		{"add bad result", func(k *KB) error {
			s := newSub("cheapest_offer", cheap1, cheap2)
			s.Result = "boolean"
			return k.AddSubcategory("logical_reasoning", s)
		}, `result "boolean"`, nil},
		{"modify subcategory", func(k *KB) error {
			_, err := k.ModifySubcategory("information_comprehension.summarize", "Condense a text.", []string{`summarize<"a">(op1)`, `summarize<"b">(op2)`})
			return err
		}, "", func(t *testing.T, k *KB) {
			_, s, _ := k.Lookup("summarize")
			if s.Definition != "Condense a text." || len(s.Examples) != 2 || s.Examples[1] != `summarize<"b">(op2)` {
				t.Errorf("not modified: %+v", s)
			}
		}},
		{"modify moves to another main", func(k *KB) error {
			_, err := k.ModifySubcategory("logical_reasoning.summarize", "Condense.", []string{`summarize<"a">(op1)`, `summarize<"b">(op2)`})
			return err
		}, "cannot move", nil},
		{"modify unknown", func(k *KB) error {
			_, err := k.ModifySubcategory("sumarize", "Condense.", []string{`sumarize<"a">(op1)`, `sumarize<"b">(op2)`})
			return err
		}, "did you mean summarize", nil},
		{"modify with a bad example", func(k *KB) error {
			_, err := k.ModifySubcategory("summarize", "Condense.", []string{`summarize<"a">(op1)`, `summarize(op2)`})
			return err
		}, "example 2", nil},
		{"add rule", func(k *KB) error { _, err := k.AddRule("Prices are compared as numbers."); return err }, "",
			func(t *testing.T, k *KB) {
				if r := k.Rules[len(k.Rules)-1]; r.ID != "15" || r.Text != "Prices are compared as numbers." {
					t.Errorf("added rule %+v, want 15", r)
				}
			}},
		{"add empty rule", func(k *KB) error { _, err := k.AddRule("  "); return err }, "empty", nil},
		{"modify rule", func(k *KB) error { _, err := k.ModifyRule("3", "Prefer structure."); return err }, "",
			func(t *testing.T, k *KB) {
				if k.Rule("3").Text != "Prefer structure." {
					t.Errorf("rule 3 = %q", k.Rule("3").Text)
				}
			}},
		{"modify missing rule", func(k *KB) error { _, err := k.ModifyRule("99", "x"); return err }, "no rule 99 (the rules are numbered 1 to 14)", nil},
		{"modify rule by a bad number", func(k *KB) error { _, err := k.ModifyRule("03", "x"); return err }, "not a rule number", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := Default()
			err := tc.edit(k)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				if !reflect.DeepEqual(k, Default()) {
					t.Error("a failed edit changed the knowledge base")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, k)
			if err := k.Validate(); err != nil {
				t.Fatalf("the edited knowledge base does not validate: %v", err)
			}
			back, diags := Parse(k.Format(), "edited.hcl")
			if len(diags) > 0 || !reflect.DeepEqual(back, k) {
				t.Errorf("the edited knowledge base does not round-trip: %v", diags)
			}
		})
	}
}

func TestAddRuleNeverReusesNumbers(t *testing.T) {
	k := small()
	k.Rules = []*Rule{{ID: "1", Text: "One."}, {ID: "7", Text: "Seven."}}
	r, err := k.AddRule("Eight.")
	if err != nil || r.ID != "8" {
		t.Errorf("AddRule = %+v, %v; want rule 8", r, err)
	}
}

func TestClone(t *testing.T) {
	k := Default()
	c := k.Clone()
	if !reflect.DeepEqual(k, c) {
		t.Fatal("Clone differs")
	}
	c.Categories[0].Subcategories[0].Examples[0] = "changed"
	c.Rules[0].Text = "changed"
	c.Categories[1].Comment = append(c.Categories[1].Comment, "changed")
	if !reflect.DeepEqual(k, Default()) {
		t.Error("editing the clone changed the original")
	}
}

// TestBlockComments: comments directly above blocks survive a round trip
// in place; others (after a blank line, at the end of a line, inside a
// block) are dropped, and formatting is stable.
func TestBlockComments(t *testing.T) {
	base := string(small().Format())
	src := "# Header.\n\n" + strings.NewReplacer(
		`category "information_creation" {`, "# About creation.\n# Two lines.\ncategory \"information_creation\" {",
		`  subcategory "summarize" {`, "  # Learned from a.cog on 2026-11-23.\n  subcategory \"summarize\" {",
		`rule "1" {`, "# Detached.\n\n/* A block\n   comment. */\nrule \"1\" { # trailing",
		`  definition = "Do repeat."`, "  # inside\n    definition = \"Do repeat.\"",
	).Replace(base)
	k, diags := Parse([]byte(src), "c.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := map[string][]string{
		"information_creation": {"About creation.", "Two lines."},
		"summarize":            {"Learned from a.cog on 2026-11-23."},
		"rule 1":               {"A block", "  comment."},
	}
	got := map[string][]string{"rule 1": k.Rule("1").Comment}
	for _, c := range k.Categories {
		if c.Comment != nil {
			got[c.Name] = c.Comment
		}
		for _, s := range c.Subcategories {
			if s.Comment != nil {
				got[s.Name] = s.Comment
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("comments = %q, want %q", got, want)
	}
	out := k.Format()
	for _, line := range []string{"# About creation.\n# Two lines.\ncategory \"information_creation\" {\n", "\n  # Learned from a.cog on 2026-11-23.\n  subcategory \"summarize\" {\n", "\n# A block\n#   comment.\nrule \"1\" {\n"} {
		if !bytes.Contains(out, []byte(line)) {
			t.Errorf("formatted file lacks %q:\n%s", line, out)
		}
	}
	back, _ := Parse(out, "c.hcl")
	if !reflect.DeepEqual(back, k) || !bytes.Equal(back.Format(), out) {
		t.Errorf("comments do not round-trip:\n%s", out)
	}
	if !slices.Equal(k.Header, []string{"Header."}) {
		t.Errorf("header = %q", k.Header)
	}
}
