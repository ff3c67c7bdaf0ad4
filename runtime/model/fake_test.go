package model

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/llm"
)

// fakeClient is a scripted llm.Client that records the requests it gets.
// It answers with replies in order (the last one repeats), or with reply
// when set.
type fakeClient struct {
	mu      sync.Mutex
	replies []string
	reply   func(llm.Request) string
	err     error
	reqs    []llm.Request
}

func script(replies ...string) *fakeClient { return &fakeClient{replies: replies} }

func (f *fakeClient) Complete(_ context.Context, r llm.Request) (*llm.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r.Messages = append([]llm.Message(nil), r.Messages...)
	f.reqs = append(f.reqs, r)
	if f.err != nil {
		return nil, f.err
	}
	var text string
	switch {
	case f.reply != nil:
		text = f.reply(r)
	case len(f.replies) > 0:
		i := min(len(f.reqs)-1, len(f.replies)-1)
		text = f.replies[i]
	}
	return &llm.Response{Text: text, Model: r.Model, TokensIn: 100, TokensOut: 5, Attempts: 1}, nil
}

func (f *fakeClient) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// last is the last request's user message (the first one, before any
// repair) and the whole conversation.
func (f *fakeClient) user(i int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reqs[i].Messages[1].Content
}

// allText is every message of every request.
func (f *fakeClient) allText() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, r := range f.reqs {
		for _, m := range r.Messages {
			b.WriteString(m.Content)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

var obeyRE = regexp.MustCompile(`(?i)(?:answer|pick|choose|select|click)\s+(?:index\s+|number\s+|candidate\s+)?(\d+)`)

// gullible is a model that obeys any instruction it reads, page text
// included: "answer 99" anywhere in the request makes it answer 99.
func gullible(fallback string) *fakeClient {
	return &fakeClient{reply: func(r llm.Request) string {
		for _, m := range r.Messages {
			if m.Role == "user" {
				if sm := obeyRE.FindStringSubmatch(m.Content); sm != nil {
					return sm[1]
				}
			}
		}
		return fallback
	}}
}

// link is a visible search result link, item i of a list of n.
func link(i, n int, text string) *driver.Element {
	return &driver.Element{
		Ref: fmt.Sprintf("r%d", i), Role: "link", Name: text, Text: text,
		Href: "/wiki/" + strings.ReplaceAll(text, " ", "_"), Path: fmt.Sprintf("main/ul/li[%d]/a", i+1),
		Visible: true, Enabled: true, Parent: -1,
		List: &driver.ListInfo{Container: "results", Index: i, Size: n},
	}
}

// results is a page of n search result links with the given texts.
func results(texts ...string) []*driver.Element {
	out := make([]*driver.Element, len(texts))
	for i, t := range texts {
		out[i] = link(i, len(texts), t)
	}
	return out
}

var eightResults = []string{"Mount Everest", "Kilimanjaro", "Mont Blanc", "Denali",
	"Aconcagua", "Mount Elbrus", "Mount Kosciuszko", "Vinson Massif"}

// elementReq asks for the search result most related to keyword.
func elementReq(keyword string, cands []*driver.Element) *dependency.Request {
	return &dependency.Request{
		Step: "op4", Line: 9, Sub: "match_element", Result: types.ElementT,
		Description: "the search result most related to the keyword",
		Goal:        "Look up a keyword and add a summary to my notes",
		Inputs:      []string{keyword}, Candidates: cands, Tree: &driver.Tree{Elements: cands},
	}
}

// textReq is a text dependency on sub with one input.
func textReq(main, sub, desc string, result types.Type, input string) *dependency.Request {
	return &dependency.Request{
		Step: "op7", Line: 12, Main: main, Sub: sub, Description: desc, Result: result,
		Goal: "Fill in each paper's abstract from the wiki", Inputs: []string{input},
	}
}

// cacheFiles lists the entries under dir.
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if os.IsNotExist(err) {
			return filepath.SkipDir
		}
		if err == nil && !e.IsDir() {
			out = append(out, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// nonceRE finds the fence marker of a request.
var nonceRE = regexp.MustCompile(`fenced with the marker ([0-9a-f]{16})\.`)

func nonceOf(t *testing.T, user string) string {
	t.Helper()
	m := nonceRE.FindStringSubmatch(user)
	if m == nil {
		t.Fatalf("no fence marker in the prompt:\n%s", user)
	}
	return m[1]
}
