package reflection

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/stdlib/kb"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// goldenKB is a small knowledge base for the golden prompt: the default's
// first subcategory of each main category and its first three rules, so
// that the golden file shows the layout without copying the whole file.
func goldenKB() *kb.KB {
	k := kb.Default()
	for _, c := range k.Categories {
		c.Subcategories = c.Subcategories[:1]
	}
	k.Rules = k.Rules[:3]
	return k
}

// TestPromptGolden renders the request for the first change between the
// archive's original.cog and edited.cog and compares it with its system
// and user sections; go test -update rewrites them.
func TestPromptGolden(t *testing.T) {
	const path = "testdata/prompt.txtar"
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*txtar.File{}
	for i := range ar.Files {
		files[ar.Files[i].Name] = &ar.Files[i]
	}
	orig := parse(t, "compiled/keyword.cog", string(files["original.cog"].Data))
	edited := parse(t, "keyword.cog", string(files["edited.cog"].Data))
	cs := Changes(orig, edited)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1: %v", len(cs), cs)
	}
	sys, usr, err := buildPrompt(Request{KB: goldenKB(), Filename: "keyword.cog", Original: orig, Edited: edited, Change: cs[0]})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		files["system"].Data, files["user"].Data = []byte(sys), []byte(usr)
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, want := sys, string(files["system"].Data); got != want {
		t.Errorf("system prompt differs (go test -update rewrites it):\n%s", got)
	}
	if got, want := usr, string(files["user"].Data); got != want {
		t.Errorf("user prompt differs (go test -update rewrites it):\n%s", got)
	}
	for _, want := range []string{
		`The extractor wrote:   summarize<"summarize in one sentence">(op5)`,
		`The person wrote:      answer_question<"the US state the mountain is in">(op5)`,
		"Goal: Look up a mountain and note the state it is in",
		"ADD_SUBCATEGORY main.sub: <definition in one sentence> | <example 1> | <example 2>",
	} {
		if !strings.Contains(usr, want) {
			t.Errorf("the prompt lacks %q", want)
		}
	}
}

// fakeLLM answers every request with one text and keeps the request.
type fakeLLM struct {
	reply string
	got   llm.Request
}

func (f *fakeLLM) Complete(_ context.Context, r llm.Request) (*llm.Response, error) {
	f.got = r
	return &llm.Response{Text: f.reply}, nil
}

func TestAsk(t *testing.T) {
	orig := parse(t, "compiled.cog", compiled)
	edited := parse(t, "edited.cog", strings.Replace(compiled, `"summarize in one sentence"`, `"in ten words"`, 1))
	req := Request{KB: kb.Default(), Filename: "edited.cog", Original: orig, Edited: edited, Change: Changes(orig, edited)[0]}
	f := &fakeLLM{reply: "REASON: too long\nUPDATES:\nNONE\n"}
	r, _, err := Ask(context.Background(), f, "m1", req)
	if err != nil || r.Updates[0].Op != None {
		t.Fatalf("Ask = %+v, %v", r, err)
	}
	if f.got.Temperature != requestTemperature || f.got.Model != "m1" || len(f.got.Messages) != 2 || f.got.Messages[0].Role != "system" {
		t.Errorf("request: %+v", f.got)
	}
	f.reply = "I think it was fine."
	if _, resp, err := Ask(context.Background(), f, "m1", req); err == nil || resp == nil {
		t.Errorf("a malformed reply: %v, response %v", err, resp)
	}
	if v := promptVersion(); v != "system v1; reflect v1" {
		t.Errorf("PromptVersion = %q", v)
	}
}

// promptVersion names the prompt files and their versions, for logs and
// caches: "system v1; reflect v1".
func promptVersion() string {
	return fmt.Sprintf("system %s; reflect %s", systemVersion, reflectVersion)
}
