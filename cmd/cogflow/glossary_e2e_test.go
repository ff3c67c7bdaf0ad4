package main

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// glossaryTerms are examples/wiki_glossary.cog's default terms, in the
// order the loop visits them (sorted), with their demo-site articles.
var glossaryTerms = []struct{ term, article string }{
	{"Kilimanjaro", "kilimanjaro"},
	{"Serengeti", "serengeti"},
	{"Zanzibar", "zanzibar"},
}

// inputRE finds the first fenced input of a prompt: the term.
var inputRE = regexp.MustCompile(`Input 1:\n<<<DATA [0-9a-f]+\n([^\n]*)\n`)

// glossaryModel scripts the model for the glossary: the paragraph is the
// intro of whichever article the prompt shows, and the definition names
// the term it was asked about. A prompt that shows no article, or several,
// gets an answer no step can use.
func glossaryModel(t *testing.T, intros map[string]string) *llmtest.Server {
	return model(t,
		llmtest.Rule{Name: "paragraph", Match: llmtest.LastUserContains("the first paragraph of the article"),
			Reply: func(q llmtest.Req) llmtest.Reply {
				found := ""
				for term, intro := range intros {
					if strings.Contains(q.Prompt(), intro) {
						if found != "" {
							return llmtest.Reply{Text: "(two articles on the screen)"}
						}
						found = term
					}
				}
				if found == "" {
					return llmtest.Reply{Text: "(no article on the screen)"}
				}
				return llmtest.Reply{Text: intros[found]}
			}},
		llmtest.Rule{Name: "definition", Match: llmtest.LastUserContains("a definition of the term in at most 15 words"),
			Reply: func(q llmtest.Req) llmtest.Reply {
				m := inputRE.FindStringSubmatch(q.LastUser())
				if m == nil {
					return llmtest.Reply{Text: "(no term in the request)"}
				}
				return llmtest.Reply{Text: "definition of " + m[1]}
			}},
		llmtest.Rule{Name: "article", Match: llmtest.LastUserContains("the search result that is the article about the term"),
			Reply: func(q llmtest.Req) llmtest.Reply {
				m := inputRE.FindStringSubmatch(q.LastUser())
				if m == nil {
					return llmtest.Reply{Text: "(no term in the request)"}
				}
				n := regexp.MustCompile(`\[(\d+)\] link "` + regexp.QuoteMeta(m[1]) + `"`).FindStringSubmatch(q.LastUser())
				if n == nil {
					return llmtest.Reply{Text: "(the term's article is not a candidate)"}
				}
				return llmtest.Reply{Text: `{"index": ` + n[1] + `}`}
			}},
	)
}

// TestE2EWikiGlossaryAllIterations runs examples/wiki_glossary.cog with a
// scripted model. Its paragraph dependency has no inputs: it reads the
// screen, so each iteration's article is a different question, and the
// answer cache must not serve the first article's paragraph to the second
// (which select_text would then not find on the page). Every iteration's
// request must carry its own article, and the notes must hold one line per
// term, each from its own article.
func TestE2EWikiGlossaryAllIterations(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	intros := map[string]string{}
	for _, g := range glossaryTerms {
		intros[g.term] = paragraph(t, g.article, 1)
	}
	srv := glossaryModel(t, intros)
	root := t.TempDir()
	wf := workflow(t, "wiki_glossary.cog", base)
	r := runWith(context.Background(), "", "run", wf, "--dir", root)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var want strings.Builder
	for _, g := range glossaryTerms {
		want.WriteString(g.term + ": definition of " + g.term + "\n")
	}
	if got := s.State().Notes; got != want.String() {
		t.Errorf("notes = %q, want %q", got, want.String())
	}

	// One paragraph request and one definition request per iteration, in
	// order, each about its own term's article.
	var paragraphs, definitions []llmtest.Req
	for _, q := range srv.Requests() {
		switch {
		case strings.Contains(q.LastUser(), "the first paragraph of the article"):
			paragraphs = append(paragraphs, q)
		case strings.Contains(q.LastUser(), "a definition of the term"):
			definitions = append(definitions, q)
		}
	}
	if len(paragraphs) != len(glossaryTerms) || len(definitions) != len(glossaryTerms) {
		t.Fatalf("%d paragraph and %d definition requests, want %d of each", len(paragraphs), len(definitions), len(glossaryTerms))
	}
	for i, g := range glossaryTerms {
		for term, intro := range intros {
			if shown := strings.Contains(paragraphs[i].Prompt(), intro); shown != (term == g.term) {
				t.Errorf("iteration %d (%s): the paragraph request shows %s's article: %v", i+1, g.term, term, shown)
			}
		}
		if d := definitions[i].LastUser(); !strings.Contains(d, "\n"+g.term+"\n") || !strings.Contains(d, intros[g.term]) {
			t.Errorf("iteration %d: the definition request is not about %s and its paragraph:\n%s", i+1, g.term, d)
		}
	}

	// A second run asks nothing: each iteration's answers are cached under
	// their own screen.
	before := srv.Count()
	s.Reset()
	r = runWith(context.Background(), "", "run", wf, "--dir", root)
	if r.code != exitOK || srv.Count() != before {
		t.Fatalf("second run: exit %d, %d new model requests\n%s", r.code, srv.Count()-before, r.stderr)
	}
	if got := s.State().Notes; got != want.String() {
		t.Errorf("second run: notes = %q, want %q", got, want.String())
	}
}
