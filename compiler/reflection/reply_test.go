package reflection

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/stdlib/kb"
)

const goodReply = `Let me think about this.

**REASON:** The extractor used summarize because the person typed a short
text, but the text names a place found in the paragraph, which is no summary.
UPDATES:
ADD_SUBCATEGORY information_comprehension.locate_place: Name the place a text says something is in. | locate_place<"the US state the mountain is in">(op5) | information_comprehension.locate_place<"the city where the | company is based">(op3)
MODIFY_RULE 6: Choose the subcategory by the relation between the inputs and the result.
` + "```" + `
ADD_RULE: A short typed answer to a question about a text is not a summary.
` + "```" + `
MODIFY_SUBCATEGORY information_comprehension.summarize: Condense a text to its main points. | ` + "`summarize<\"the email in two lines\">(op2)`" + ` | summarize<"the article in one sentence">(op4)
`

func TestParseReply(t *testing.T) {
	r, err := parseReply(goodReply)
	if err != nil {
		t.Fatal(err)
	}
	wantReason := "The extractor used summarize because the person typed a short\ntext, but the text names a place found in the paragraph, which is no summary."
	if r.Reason != wantReason {
		t.Errorf("reason = %q", r.Reason)
	}
	want := []Update{
		{Op: AddSubcategory, Line: 6, Main: "information_comprehension", Sub: "locate_place", Definition: "Name the place a text says something is in.",
			Examples: []string{`locate_place<"the US state the mountain is in">(op5)`, `information_comprehension.locate_place<"the city where the | company is based">(op3)`}},
		{Op: ModifyRule, Line: 7, Rule: "6", Text: "Choose the subcategory by the relation between the inputs and the result."},
		{Op: AddRule, Line: 9, Text: "A short typed answer to a question about a text is not a summary."},
		{Op: ModifySubcategory, Line: 11, Main: "information_comprehension", Sub: "summarize", Definition: "Condense a text to its main points.",
			Examples: []string{`summarize<"the email in two lines">(op2)`, `summarize<"the article in one sentence">(op4)`}},
	}
	if !reflect.DeepEqual(r.Updates, want) {
		t.Errorf("updates:\n%+v\nwant:\n%+v", r.Updates, want)
	}
	for _, reply := range []string{
		"REASON: the knowledge base was right\nUPDATES:\nNONE\n",
		"REASON: the knowledge base was right\n\n## Updates\n```\nNONE\n```\n",
		"REASON: the knowledge base was right\n**UPDATES:** NONE",
	} {
		if r, err := parseReply(reply); err != nil || len(r.Updates) != 1 || r.Updates[0].Op != None || r.Reason != "the knowledge base was right" {
			t.Errorf("ParseReply(%q) = %+v, %v; want one NONE", reply, r, err)
		}
	}
}

// TestParseReplyMalformed: each malformed reply fails with an error that
// names the line and what was expected.
func TestParseReplyMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, reply, want string
	}{
		{"empty", "", `no line "REASON: …"`},
		{"no reason", "UPDATES:\nNONE", `no line "REASON: …"`},
		{"no updates section", "REASON: it was wrong\nADD_RULE: x", `no line "UPDATES:"`},
		{"empty reason", "REASON:\nUPDATES:\nNONE", "line 1: the reason is empty"},
		{"no update", "REASON: x\nUPDATES:\n\n", "line 2: no update after UPDATES"},
		{"chatter after updates", "REASON: x\nUPDATES:\nADD_RULE: Be exact.\nHope this helps!", `line 4: expected an update (ADD_SUBCATEGORY`},
		{"bullet", "REASON: x\nUPDATES:\n- ADD_RULE: Be exact.", `line 3: expected an update (ADD_SUBCATEGORY main.sub: …`},
		{"unknown verb", "REASON: x\nUPDATES:\nADD_EXAMPLE summarize: x", "line 3: unknown update ADD_EXAMPLE"},
		{"none with others", "REASON: x\nUPDATES:\nNONE\nADD_RULE: y", "line 3: NONE must be the only update"},
		{"none with text", "REASON: x\nUPDATES:\nNONE needed", "line 3: NONE takes nothing after it"},
		{"rule without text", "REASON: x\nUPDATES:\nADD_RULE:", `line 3: expected "ADD_RULE: text"`},
		{"rule without colon", "REASON: x\nUPDATES:\nADD_RULE Be exact.", `line 3: expected "ADD_RULE: text"`},
		{"modify rule without number", "REASON: x\nUPDATES:\nMODIFY_RULE: Be exact.", `line 3: expected "MODIFY_RULE n: text"`},
		{"unqualified subcategory", "REASON: x\nUPDATES:\nADD_SUBCATEGORY locate_place: d | a | b", "line 3: expected \"ADD_SUBCATEGORY main.sub: definition | example 1 | example 2\" with the subcategory qualified"},
		{"one example", "REASON: x\nUPDATES:\nADD_SUBCATEGORY logical_reasoning.x: d | x<\"a\">()", "line 3: expected \"definition | example 1 | example 2\" after logical_reasoning.x: (3 parts separated by |), got 2"},
		{"empty example", "REASON: x\nUPDATES:\nADD_SUBCATEGORY logical_reasoning.x: d | x<\"a\">() | ", "line 3: the definition and both examples"},
		{"remove main category", "REASON: x\nUPDATES:\nREMOVE_CATEGORY information_recall", "line 3: REMOVE_CATEGORY is refused: the five main categories are a closed set"},
		{"add main category", "REASON: x\nUPDATES:\nADD_CATEGORY web_search: Search the web.", "line 3: ADD_CATEGORY is refused"},
		{"delete subcategory", "REASON: x\nUPDATES:\nDELETE_SUBCATEGORY information_recall.repeat", "line 3: DELETE_SUBCATEGORY is refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := parseReply(tc.reply)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseReply = %+v, %v; want an error containing %q", r, err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "reflection reply") {
				t.Errorf("error %q does not say it is about the reflection reply", err)
			}
		})
	}
}

// TestApply: valid updates change a copy; refused ones fail with a clear
// error and leave the knowledge base untouched.
func TestApply(t *testing.T) {
	r, err := parseReply(goodReply)
	if err != nil {
		t.Fatal(err)
	}
	k := kb.Default()
	const note = "Learned by cogflow reflect from keyword.cog on 2026-11-23."
	got, err := Apply(k, r.Updates, note)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(k, kb.Default()) {
		t.Error("Apply changed its input")
	}
	c, s, ok := got.Lookup("locate_place")
	if !ok || c.Name != "information_comprehension" || len(s.Examples) != 2 || !reflect.DeepEqual(s.Comment, []string{note}) {
		t.Errorf("locate_place: %v %+v", ok, s)
	}
	_, sum, _ := got.Lookup("summarize")
	_, old, _ := kb.Default().Lookup("summarize")
	wantEx := append([]string{`summarize<"the email in two lines">(op2)`, `summarize<"the article in one sentence">(op4)`}, old.Examples...)
	if !reflect.DeepEqual(sum.Examples, wantEx) || sum.Definition != "Condense a text to its main points." {
		t.Errorf("summarize does not keep what it covered: %q", sum.Examples)
	}
	if r := got.Rule("15"); r == nil || r.Text != "A short typed answer to a question about a text is not a summary." || !reflect.DeepEqual(r.Comment, []string{note}) {
		t.Errorf("rule 15 = %+v", r)
	}
	if r := got.Rule("6"); !strings.HasPrefix(r.Text, "Choose the subcategory by the relation") || !reflect.DeepEqual(r.Comment, []string{note}) {
		t.Errorf("rule 6 = %+v", r)
	}
	out := string(got.Format())
	if !strings.Contains(out, "\n  # "+note+"\n  subcategory \"locate_place\" {\n") || !strings.HasPrefix(out, "# cogflow operation-cognition knowledge base") {
		t.Errorf("the written file does not carry the header and the learned comment:\n%s", out)
	}

	for _, tc := range []struct {
		name   string
		update Update
		want   string
	}{
		{"new main category", Update{Op: AddSubcategory, Main: "web_search", Sub: "find", Definition: "d", Examples: []string{`find<"a">()`, `find<"b">()`}},
			`"web_search" is not a main category; the main categories are a closed set`},
		{"subcategory named like a main category", Update{Op: AddSubcategory, Main: "logical_reasoning", Sub: "information_recall", Definition: "d",
			Examples: []string{`information_recall<"a">()`, `information_recall<"b">()`}}, "is a main category, not a subcategory name"},
		{"modify into another main category", Update{Op: ModifySubcategory, Main: "logical_reasoning", Sub: "summarize", Definition: "d",
			Examples: []string{`summarize<"a">()`, `summarize<"b">()`}}, "cannot move to another main category"},
		{"modify a main category", Update{Op: ModifySubcategory, Main: "information_recall", Sub: "information_recall", Definition: "d",
			Examples: []string{`information_recall<"a">()`, `information_recall<"b">()`}}, "no subcategory information_recall to modify"},
		{"add existing", Update{Op: AddSubcategory, Main: "information_comprehension", Sub: "summarize", Definition: "d",
			Examples: []string{`summarize<"a">()`, `summarize<"b">()`}}, "use MODIFY_SUBCATEGORY information_comprehension.summarize"},
		{"example on another subcategory", Update{Op: AddSubcategory, Main: "logical_reasoning", Sub: "cheapest", Definition: "d",
			Examples: []string{`cheapest<"a">()`, `compare<"b">()`}}, "example 2"},
		{"modify missing rule", Update{Op: ModifyRule, Rule: "40", Text: "x"}, "there is no rule 40"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.update.Line = 7
			k := kb.Default()
			ups := []Update{{Op: AddRule, Line: 6, Text: "Applied before the refused one."}, tc.update}
			got, err := Apply(k, ups, note)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "update 2 (reply line 7") {
				t.Fatalf("Apply = %v; want an error containing %q", err, tc.want)
			}
			if got != nil || !reflect.DeepEqual(k, kb.Default()) {
				t.Error("a refused update changed the knowledge base")
			}
		})
	}
}

// FuzzParseReply: no reply crashes the parser, and what it accepts
// renders (Update.String) into lines that parse back to the same updates.
func FuzzParseReply(f *testing.F) {
	f.Add(goodReply)
	f.Add("REASON: x\nUPDATES:\nNONE")
	f.Add("REASON: x\nUPDATES: MODIFY_RULE 3: y\nADD_SUBCATEGORY a.b: c | d | e")
	f.Fuzz(func(t *testing.T, reply string) {
		r, err := parseReply(reply)
		if err != nil {
			return
		}
		var lines []string
		for _, u := range r.Updates {
			lines = append(lines, u.String())
		}
		back, err := parseReply("REASON: again\nUPDATES:\n" + strings.Join(lines, "\n"))
		if err != nil {
			t.Fatalf("rendered updates do not parse: %v\n%s", err, strings.Join(lines, "\n"))
		}
		for i := range back.Updates {
			back.Updates[i].Line = r.Updates[i].Line
		}
		if !reflect.DeepEqual(back.Updates, r.Updates) {
			t.Fatalf("round trip changed the updates:\n%+v\n%+v", r.Updates, back.Updates)
		}
	})
}
