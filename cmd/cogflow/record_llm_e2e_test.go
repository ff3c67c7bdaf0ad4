package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// TestE2ERecordKeywordSummaryWithLLM is programming by demonstration with
// a model, end to end: a person, working in two tabs, looks a keyword up
// on the wiki, selects and copies the article's introduction and types a
// one-sentence summary of it into their notes. The trace is compiled with
// the (scripted) model answering the extractor, and the workflow run with
// another keyword: the summary saved must be the one the model wrote for
// the new keyword's introduction.
func TestE2ERecordKeywordSummaryWithLLM(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	s, base := demo(t)
	const demoSummary = "Kilimanjaro is a dormant volcano and the highest mountain in Africa."
	tracePath := demonstrate(t, ctx, base, demoSummary)
	if got := s.State().Notes; !strings.Contains(got, demoSummary) {
		t.Fatalf("the demonstration did not save the note: %q", got)
	}

	// Compile: the scripted extractor answers from the operations it is
	// shown, and checks that it was shown what a model needs.
	kiliIntro := paragraph(t, "kilimanjaro", 1)
	srv := model(t, llmtest.Rule{Name: "extractor", Match: llmtest.Contains("dependency extractor of cogflow"), Reply: func(q llmtest.Req) llmtest.Reply {
		p := q.Prompt()
		for _, want := range []string{"information_comprehension.summarize (returns", `main.sub<"description">`, "## Extractor rules", kiliIntro[:80], demoSummary, "Kilimanjaro"} {
			if !strings.Contains(p, want) {
				return llmtest.Reply{Status: 400, Text: "the extractor request lacks " + want}
			}
		}
		return llmtest.Reply{Text: keywordExtractorReply(p, demoSummary)}
	}})
	// Both ways (api-first and --no-api-first): one request each.
	b := compileBothWays(t, tracePath, "keyword_summary.cog")
	src := b.apiSrc
	if srv.Count() != 2 {
		t.Fatalf("%d extractor requests, want 2", srv.Count())
	}
	for _, want := range []string{"new_tab(", `match_element<"the search result most related to the keyword">(`, `extract_information<"the introductory paragraph of the article">(`, `summarize<"summarize the introduction in one sentence">(`, `switch_window("Notes")`} {
		if !strings.Contains(src, want) {
			t.Errorf("the compiled workflow lacks %s", want)
		}
	}
	name := inputNamed(src, `"Kilimanjaro"`)
	if name == "" {
		t.Fatalf("the keyword is not an input:\n%s", src)
	}

	// Run with a new keyword on a fresh site, both ways; the model answers
	// each run's extraction and summary, and checks that it reads the new
	// article.
	kenyaIntro := paragraph(t, "mount_kenya", 1)
	const kenyaSummary = "Mount Kenya is an extinct volcano, the second-highest mountain in Africa."
	srv2 := model(t,
		llmtest.Rule{Name: "extract", Match: llmtest.LastUserContains("the introductory paragraph of the article"), Reply: func(q llmtest.Req) llmtest.Reply {
			if !strings.Contains(q.Prompt(), kenyaIntro[:80]) || strings.Contains(q.Prompt(), kiliIntro[:80]) {
				return llmtest.Reply{Status: 400, Text: "the extraction does not read the Mount Kenya article"}
			}
			return llmtest.Reply{Text: kenyaIntro}
		}},
		llmtest.Rule{Name: "summarize", Match: llmtest.LastUserContains("summarize the introduction in one sentence"), Reply: func(q llmtest.Req) llmtest.Reply {
			if !strings.Contains(q.Prompt(), kenyaIntro[:80]) {
				return llmtest.Reply{Status: 400, Text: "the summary is not asked of the new introduction"}
			}
			return llmtest.Reply{Text: kenyaSummary}
		}},
	)
	sites, roots := runBothWays(t, ctx, b, base, "--input", name+"=Mount Kenya")
	if n := srv2.Count(); n != 2*len(sites) {
		t.Errorf("%d model requests in %d runs, want 2 each (extract, summarize; the result is an exact match)", n, len(sites))
	}
	for i, s2 := range sites {
		if got := s2.State().Notes; !strings.Contains(got, kenyaSummary) || strings.Contains(got, demoSummary) {
			t.Errorf("run %d: notes after the run = %q, want the model's Mount Kenya summary", i, got)
		}
		run := lastRun(t, roots[i])
		var llmSteps int
		for _, st := range run.Steps {
			if st.Source == journal.SourceLLM {
				llmSteps++
			}
		}
		if llmSteps != 2 {
			t.Errorf("run %d: %d steps answered by the model, want 2", i, llmSteps)
		}
	}
}

// demonstrate records the keyword-summary task as a person does it and
// returns the trace's path.
func demonstrate(t *testing.T, ctx context.Context, base, summary string) string {
	t.Helper()
	h, wait := recordSession(t, ctx, base+"/notes")
	h.el(`#notes`)
	// Ctrl+T and the wiki's address: a second tab, in the recorded tab's
	// window (the recorder works in a browser context of its own).
	info, err := h.p.Info()
	if err != nil {
		t.Fatal(err)
	}
	// (rod's Browser.Page would put the tab in its own default context.)
	created, err := proto.TargetCreateTarget{URL: base + "/wiki", BrowserContextID: info.BrowserContextID}.Call(h.p.Browser())
	if err != nil {
		t.Fatal(err)
	}
	wikiPage, err := h.p.Browser().PageFromTarget(created.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	wiki := e2ePerson{t: t, p: wikiPage}
	wiki.el(`#q`)
	time.Sleep(400 * time.Millisecond) // the recorder is installed in the new tab
	wiki.mouseClick(`#q`)
	wiki.typeText("Kilimanjaro")
	wiki.press(input.Enter)
	wiki.el(`ul.results`)
	time.Sleep(300 * time.Millisecond)
	wiki.mouseClick(`ul.results a[href="/wiki/Kilimanjaro"]`)
	wiki.el(`#intro`)
	time.Sleep(300 * time.Millisecond)
	wiki.dragSelect(`#intro`)
	wiki.chord(input.ControlLeft, input.KeyC)

	// Back to the notes tab.
	if _, err := h.p.Activate(); err != nil {
		t.Fatal(err)
	}
	h.mouseClick(`#notes`)
	h.press(input.End)
	h.typeText(summary)
	time.Sleep(800 * time.Millisecond) // notes save as you type
	h.stop()
	return wait()
}

// dragSelect selects an element's text the way a person does: press at its
// first character and drag to its end. Like a person, it tries again when
// the drag selected nothing.
func (h e2ePerson) dragSelect(sel string) {
	h.t.Helper()
	b := h.box(sel)
	m := h.p.Mouse
	for try := 0; try < 3; try++ {
		if err := m.MoveTo(proto.Point{X: b.X + 1, Y: b.Y + 4}); err != nil {
			h.t.Fatal(err)
		}
		if err := m.Down(proto.InputMouseButtonLeft, 1); err != nil {
			h.t.Fatal(err)
		}
		if err := m.MoveLinear(proto.Point{X: b.X + b.Width - 1, Y: b.Y + b.Height - 4}, 8); err != nil {
			h.t.Fatal(err)
		}
		if err := m.Up(proto.InputMouseButtonLeft, 1); err != nil {
			h.t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if got, err := h.p.Eval(`() => String(getSelection()).trim()`); err == nil && got.Value.Str() != "" {
			return
		}
	}
	h.t.Fatalf("could not select the text of %s", sel)
}

var reOpLine = regexp.MustCompile(`^(op\d+) = (.*)$`)

// keywordExtractorReply answers the extractor the way a careful model
// would, finding the operations by what the request shows of them: the
// search result clicked depends on the keyword, the selection is the
// article's introduction, the typed note is its summary.
func keywordExtractorReply(prompt, summary string) string {
	var keyword, result, selection, note, cur string
	ops := prompt[strings.Index(prompt, "# Operations"):]
	for _, line := range strings.Split(ops, "\n") {
		if m := reOpLine.FindStringSubmatch(line); m != nil {
			cur = m[1]
			if strings.HasPrefix(m[2], "select_text(") {
				selection = cur
			}
			continue
		}
		switch {
		case strings.Contains(line, "(the typed text became the input"):
			if keyword == "" {
				keyword = cur
			}
		case strings.Contains(line, `target: link(name: "Kilimanjaro"`):
			result = cur
		case strings.TrimSpace(line) == summary:
			note = cur
		}
	}
	var b strings.Builder
	b.WriteString("The person searched for a keyword, opened the matching article, selected its introduction and wrote a one-sentence summary of it.\n\n")
	fmt.Fprintf(&b, "%s = input\n", keyword)
	fmt.Fprintf(&b, "%s = match_element<\"the search result most related to the keyword\">(%s)\n", result, keyword)
	fmt.Fprintf(&b, "%s = extract_information<\"the introductory paragraph of the article\">(%s)\n", selection, keyword)
	fmt.Fprintf(&b, "%s = summarize<\"summarize the introduction in one sentence\">(%s)\n", note, selection)
	b.WriteString("goal: Look up a keyword on the wiki and add a one-sentence summary of its introduction to my notes\n")
	b.WriteString("params: keyword\n")
	return b.String()
}
