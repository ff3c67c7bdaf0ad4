package compiler

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// fakeLLM answers every request with a scripted reply and records them.
type fakeLLM struct {
	reply string
	err   error
	reqs  []llm.Request
}

func (f *fakeLLM) Complete(_ context.Context, r llm.Request) (*llm.Response, error) {
	f.reqs = append(f.reqs, r)
	if f.err != nil {
		return nil, f.err
	}
	return &llm.Response{Text: f.reply, Model: r.Model}, nil
}

const goodReply = `Let me think step by step.
op4: the person clicked the result matching the keyword typed in op2.
op5: the intro paragraph of the article is selected.

` + "```" + `
1. op2 = input
   op4 = match_element<"the search result whose title is the searched keyword">(op2)
2. op5 = extract_information.information_recall<"the introduction paragraph of the article">(op4)
3. op7 = summarize<"the US state the mountain is in, in one word">(op5)
` + "```" + `
goal: Look up a mountain on the wiki and note the state it is in
params: mountain
`

// compileLLM compiles the keyword trace with a scripted LLM and checks the
// result parses, checks clean and is a fixed point of the printer.
func compileLLM(t *testing.T, client llm.Client) *Result {
	t.Helper()
	tr := load(t, "../runtime/trace/testdata/keyword.trace.json")
	res, err := Compile(tr, Options{Filename: "keyword.cog", LLM: client, Model: "test-model"})
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Source)
	}
	f, ds := syntax.Parse("keyword.cog", res.Source)
	if ds.HasErrors() {
		t.Fatalf("parse: %v\n%s", ds.Err(), res.Source)
	}
	if _, ds := check.Check(f, kb.CheckEnv(nil)); ds.HasErrors() {
		t.Fatalf("check: %v\n%s", ds.Err(), res.Source)
	}
	if again := printer.Format(f); !bytes.Equal(again, res.Source) {
		t.Fatalf("not a fixed point of printer.Format:\n%s\n---\n%s", res.Source, again)
	}
	t.Logf("%s\nwarnings:\n%s", res.Source, strings.Join(res.Warnings.Messages(), "\n"))
	return res
}

func TestSemanticRequest(t *testing.T) {
	f := &fakeLLM{reply: goodReply}
	compileLLM(t, f)
	if len(f.reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(f.reqs))
	}
	r := f.reqs[0]
	if r.Temperature != semanticTemperature || r.Model != "test-model" {
		t.Errorf("temperature %v model %q", r.Temperature, r.Model)
	}
	prompt := r.Messages[len(r.Messages)-1].Content
	k := kb.Default()
	for _, c := range k.Categories {
		if !strings.Contains(prompt, c.Name) {
			t.Errorf("prompt lacks main category %s", c.Name)
		}
		for _, s := range c.Subcategories {
			if s.Name == "explore" {
				// Not offered: a demonstration shows where its elements were.
				if strings.Contains(prompt, "."+s.Name+" (returns") {
					t.Errorf("prompt offers %s.%s", c.Name, s.Name)
				}
				continue
			}
			if !strings.Contains(prompt, "- "+c.Name+"."+s.Name+" (returns") || !strings.Contains(prompt, s.Examples[0]) {
				t.Errorf("prompt lacks subcategory %s.%s or its example", c.Name, s.Name)
			}
			// The language writes main.sub; a model copies what it is shown.
			if strings.Contains(prompt, s.Name+"."+c.Name) {
				t.Errorf("prompt shows %s.%s, the reverse of the language's main.sub", s.Name, c.Name)
			}
		}
	}
	for _, rule := range k.Rules {
		if !strings.Contains(prompt, rule.ID+". "+rule.Text) {
			t.Errorf("prompt lacks rule %s", rule.ID)
		}
	}
	for _, want := range []string{
		`op2 = type(textbox(name: "Search", id: "q"), search)`,
		`op4 = click(match_element<"TODO: describe which element">(op2, within: list(name: "Search results")))`,
		"```data\nDenali is the highest mountain in North America",
		"Operations to judge: op2, op4, op5, op7.",
		`opK = main.sub<"description">(opI, opJ)`,
		"goal: <one sentence>",
		"params: name1, name2",
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(prompt)
	}
}

func TestSemanticGoodReply(t *testing.T) {
	res := compileLLM(t, &fakeLLM{reply: goodReply})
	src := string(res.Source)
	for _, want := range []string{
		`task recorded_task "Look up a mountain on the wiki and note the state it is in" {`,
		`input mountain: text = "Denali"`,
		`op2 = type(textbox(name: "Search", id: "q"), mountain)`,
		`op4 = click(match_element<"the search result whose title is the searched keyword">(op2, within: list(name: "Search results")))`,
		`op5 = select_text(extract_information<"the introduction paragraph of the article">(op4))`,
		`op7 = type(textbox(name: "Notes", id: "notes"), summarize<"the US state the mountain is in, in one word">(op5))`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, bad := range []string{"TODO", "input notes", "input search"} {
		if strings.Contains(src, bad) {
			t.Errorf("still has %q", bad)
		}
	}
	for _, w := range res.Warnings.Messages() {
		if strings.Contains(w, "needs judgement") || strings.HasPrefix(w, "semantic:") {
			t.Errorf("TODO warning kept: %s", w)
		}
	}
}

func TestSemanticWithTestServer(t *testing.T) {
	srv := llmtest.New(t, llmtest.Rule{Match: llmtest.LastUserContains("# Knowledge base"), Reply: llmtest.Text(goodReply)})
	client, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	res := compileLLM(t, client)
	if !strings.Contains(string(res.Source), `summarize<"the US state the mountain is in, in one word">(op5)`) {
		t.Errorf("no summarize dependency")
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Temperature == nil || *reqs[0].Temperature != semanticTemperature {
		t.Errorf("requests: %+v", reqs)
	}
}

func hasWarning(ws []string, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

func TestSemanticMalformedReplies(t *testing.T) {
	cases := []struct {
		name, reply string
		warn        []string // substrings of expected warnings
		has, hasNot []string
	}{
		{name: "empty", reply: "", has: []string{todoElement, `input search`}},
		{name: "garbage", reply: "\x00\xff<<<>>> op4 = = = ((( \n op = x\nop99 = summarize<\"x\">(op1)\nop4 = match_element<\"unterminated",
			warn: []string{"there is no step op99", "not a dependency line"}, has: []string{todoElement}},
		{name: "chatter only", reply: "I think this task is about mountains. The user searched.\nop4: the person clicked the first result", has: []string{todoElement}},
		{name: "unknown sub flagged new", reply: `op7 = rank.logical_reasoning<"the best fact about the mountain">(op5)`,
			warn: []string{"new subcategory logical_reasoning.rank"}, has: []string{`logical_reasoning.rank<"the best fact about the mountain">(op5)`}},
		{name: "unknown sub in the prompt's main.sub order", reply: `op7 = logical_reasoning.rank<"the best fact about the mountain">(op5)`,
			warn: []string{"new subcategory logical_reasoning.rank"}, has: []string{`logical_reasoning.rank<"the best fact about the mountain">(op5)`}},
		{name: "unknown sub unqualified", reply: `op7 = frobnicate<"x">(op5)`, warn: []string{"unknown subcategory frobnicate"}, has: []string{"input notes"}},
		{name: "bad main", reply: `op7 = summarize.thinking<"x">(op5)`, warn: []string{"neither summarize nor thinking is a main category"}, has: []string{"input notes"}},
		{name: "later input", reply: `op4 = match_element<"the first result">(op7)`, warn: []string{"input op7 is not an earlier step than op4"}, has: []string{todoElement}},
		{name: "self input", reply: `op5 = extract_information<"x">(op5)`, warn: []string{"not an earlier step"}},
		{name: "unknown input", reply: `op7 = summarize<"x">(foo)`, warn: []string{"input foo is neither"}},
		{name: "empty description", reply: `op7 = summarize<"">(op5)`, warn: []string{"description is empty"}},
		{name: "wrong main corrected", reply: `op7 = logical_reasoning.summarize<"the state">(op5)`, warn: []string{"summarize belongs to information_comprehension"}, has: []string{`summarize<"the state">(op5)`}},
		{name: "type mismatch reverted", reply: `op7 = match_element<"the notes box">(op5)`, warn: []string{"does not check"}, has: []string{"input notes"}},
		{name: "duplicate", reply: "op7 = fixed\nop7 = input", warn: []string{"already given"}, has: []string{`"Alaska")`}, hasNot: []string{"input notes"}},
		{name: "fixed choice", reply: "OP4 = Fixed.", hasNot: []string{todoElement, "match_element"}},
		{name: "not judged", reply: `op1 = summarize<"x">()`, warn: []string{"op1 needs no judgement"}},
		{name: "params clash", reply: "params: op3, row", warn: []string{"is taken"}, has: []string{"input search"}},
		{name: "too many params", reply: "params: a, b, c", warn: []string{"3 parameters named for 2 inputs"}, has: []string{"input a:", "input b:"}},
		{name: "main.sub order and bullets", reply: "- **op4 = contextual_selection.match_element<'the result named like the keyword'>(search)**\n* goal: \"Find it\"",
			has: []string{`match_element<"the result named like the keyword">(search, within:`, `"Find it"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := compileLLM(t, &fakeLLM{reply: tc.reply})
			for _, w := range tc.warn {
				if !hasWarning(res.Warnings.Messages(), w) {
					t.Errorf("no warning %q in:\n%s", w, strings.Join(res.Warnings.Messages(), "\n"))
				}
			}
			for _, s := range tc.has {
				if !strings.Contains(string(res.Source), s) {
					t.Errorf("source lacks %q", s)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(string(res.Source), s) {
					t.Errorf("source has %q", s)
				}
			}
		})
	}
}

func TestSemanticLLMError(t *testing.T) {
	res := compileLLM(t, &fakeLLM{err: errors.New("connection refused")})
	if !hasWarning(res.Warnings.Messages(), "the LLM request failed") || !strings.Contains(string(res.Source), todoElement) {
		t.Errorf("warnings %q", res.Warnings)
	}
}

func TestSemanticNoLLMUnchanged(t *testing.T) {
	tr := load(t, "../runtime/trace/testdata/keyword.trace.json")
	a, err := Compile(tr, Options{Filename: "k.cog"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(a.Source), "rules only, no LLM") || !strings.Contains(string(a.Source), todoElement) {
		t.Errorf("without an LLM the output changed:\n%s", a.Source)
	}
}

func TestSemanticAllTraces(t *testing.T) {
	// Every golden trace compiles with an LLM that answers nonsense.
	for _, p := range []string{"../runtime/trace/testdata/reading_list.trace.json", "testdata/extract.trace.json", "testdata/structure.trace.json", "testdata/iterative.trace.json"} {
		res, err := Compile(load(t, p), Options{Filename: "x.cog", LLM: &fakeLLM{reply: "op1 = summarize<\"x\">(op2)\nop3 = fixed\ngoal: Do it\nparams: thing"}})
		if err != nil {
			t.Fatalf("%s: %v\n%s", p, err, res.Source)
		}
	}
}

func FuzzParseSemanticReply(f *testing.F) {
	f.Add(goodReply)
	f.Add("op1 = a.b<\"x\">(op0)\nparams: ,,\ngoal:")
	k := kb.Default()
	f.Fuzz(func(t *testing.T, s string) {
		r := parseSemanticReply(s, k, []string{"op1", "op2", "op3"}, []string{"search"})
		for _, d := range r.Deps {
			if d.Kind == "dep" && (d.Description == "" || d.Sub == "") {
				t.Fatalf("invalid dep accepted: %+v", d)
			}
		}
	})
}

func TestSemanticIterative(t *testing.T) {
	reply := "op7 = match_element<\"the search result whose title is the paper's title\">(op5)\n" +
		"op9 = extract_information.information_recall<\"the abstract of the article\">(op7)\n" +
		"goal: Fill in the abstract of every paper in the reading list from the wiki\nparams:\n"
	f := &fakeLLM{reply: reply}
	res, err := Compile(load(t, "../runtime/trace/testdata/reading_list.trace.json"), Options{Filename: "r.cog", LLM: f})
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Source)
	}
	src := string(res.Source)
	for _, want := range []string{
		`op2  = select_text(same(op1))`,
		`match_element<"the search result whose title is the paper's title">(op5, within: list(path: "main/ul"))`,
		`op9  = select_text(extract_information<"the abstract of the article">(op7))`,
		`"Fill in the abstract of every paper in the reading list from the wiki"`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %q in\n%s", want, src)
		}
	}
	if p := f.reqs[0].Messages[1].Content; !strings.Contains(p, "Operations to judge: op7, op9.") {
		t.Errorf("judged operations wrong:\n%s", p)
	}
	if hasWarning(res.Warnings.Messages(), "semantic:") {
		t.Errorf("warnings: %q", res.Warnings)
	}
}

func TestSemanticChatterNoWarnings(t *testing.T) {
	res := compileLLM(t, &fakeLLM{reply: "Sure! Here is my analysis.\nop4: the person picked the first result.\nop7 - typed a note\n```\n```"})
	if hasWarning(res.Warnings.Messages(), "semantic:") {
		t.Errorf("chatter produced warnings: %q", res.Warnings)
	}
}
