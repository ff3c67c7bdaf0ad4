package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// model is a answerer that answers every text question with one text, as
// a language model talked into it by a page would.
type model struct{ name, text string }

func (m model) Name() string { return m.name }
func (m model) Answer(context.Context, *dependency.Request) (*dependency.Answer, error) {
	return &dependency.Answer{Text: m.text}, nil
}

// TestURLPolicy: a URL that came from a model or the page is opened only
// when it is http(s) on an origin the workflow names or the configuration
// allows; a URL a person wrote is opened as written.
func TestURLPolicy(t *testing.T) {
	const fromModel = `task go "Follow the link" {
  driver browser
  input site: url = "http://wiki/"
  op1 = open(site)
  op2 = open(summarize<"the link to follow">(site))
}`
	const viaSkill = `skill visit(u: url) {
  v1 = open(u)
}
task go "Follow the link" {
  driver browser
  op1 = open("http://wiki/")
  op2 = visit(summarize<"the link to follow">("x"))
}`
	const tab = `task go "Follow the link" {
  driver browser
  op1 = open("http://wiki/")
  op2 = new_tab(summarize<"the link to follow">("x"))
}`
	const loop = `task go "Open each" {
  driver browser
  input pages: list<url> = ["http://wiki/"]
  for p in pages {
    op1 = open(p)
  }
}`
	const branch = `task go "Follow the link" {
  driver browser
  op1 = open("http://wiki/")
  if true {
    repeat 1 {
      op2 = open(summarize<"the link to follow">("x"))
    }
  } else {
    op3 = open("https://docs.example/")
  }
}`
	for _, tc := range []struct {
		name, src, answerer, answer string
		allow                       []string
		inputs                      map[string]string
		want                        string // "" when the URL is opened
	}{
		{name: "same origin", src: fromModel, answer: "http://wiki/page2"},
		{name: "same origin, other spelling", src: fromModel, answer: "HTTP://WIKI:80/page2"},
		{name: "javascript", src: fromModel, answer: "javascript:alert(document.cookie)", want: "its scheme is javascript:"},
		{name: "file", src: fromModel, answer: "file:///etc/passwd", want: "its scheme is file:"},
		{name: "data", src: fromModel, answer: "data:text/html,<script>alert(1)</script>", want: "its scheme is data:"},
		{name: "leading space", src: fromModel, answer: " javascript:alert(1)", want: "a space"},
		{name: "relative", src: fromModel, answer: "/admin", want: "not an absolute URL"},
		{name: "off origin", src: fromModel, answer: "http://evil.example/x", want: "the origin http://evil.example:80 is not one the workflow visits or names"},
		{name: "user info", src: fromModel, answer: "http://wiki@evil.example/", want: "http://evil.example:80"},
		{name: "other port", src: fromModel, answer: "http://wiki:8080/", want: "http://wiki:8080"},
		{name: "cached answer", src: fromModel, answerer: "cache", answer: "file:///etc/passwd", want: "its scheme is file:"},
		{name: "allowed origin", src: fromModel, answer: "https://docs.example/a", allow: []string{"https://docs.example"}},
		{name: "allowed subdomain", src: fromModel, answer: "https://a.b.example/", allow: []string{"https://*.example"}},
		{name: "subdomain pattern is not the domain", src: fromModel, answer: "https://example/", allow: []string{"https://*.example"}, want: "https://example:443"},
		{name: "any origin, still http only", src: fromModel, answer: "file:///etc/passwd", allow: []string{"*"}, want: "its scheme is file:"},
		{name: "any origin", src: fromModel, answer: "https://evil.example/", allow: []string{"*"}},
		{name: "input names the origin", src: fromModel, answer: "https://shop.example/x", inputs: map[string]string{"site": "https://shop.example/"}},
		{name: "a person at --ask", src: fromModel, answerer: "ask", answer: "file:///tmp/page.html"},
		{name: "through a skill", src: viaSkill, answer: "http://evil.example/", want: "came from a model's answer"},
		{name: "inside if and repeat", src: branch, answer: "http://evil.example/", want: "http://evil.example:80"},
		{name: "origin named in another branch", src: branch, answer: "https://docs.example/b"},
		{name: "new tab", src: tab, answer: "javascript:alert(1)", want: "its scheme is javascript:"},
		{name: "loop over an input", src: loop, answer: "file:///tmp/a.html", inputs: map[string]string{"pages": "file:///tmp/a.html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, task, info := load(t, tc.src)
			home := func() *driver.Tree { return &driver.Tree{URL: "http://wiki/", Title: "Wiki"} }
			f := drivertest.New(home())
			for _, u := range []string{"http://wiki/", tc.answer, tc.inputs["site"]} {
				f.Pages[u] = home
			}
			answerer := tc.answerer
			if answerer == "" {
				answerer = "llm"
			}
			var rs []dependency.Answerer
			if answerer == "ask" {
				rs = append(rs, runtime.AskAnswerer{P: &answers{lines: []string{tc.answer}}})
			} else {
				rs = append(rs, model{name: answerer, text: tc.answer})
			}
			_, err := runtime.New(file, task, info, f, runtime.Options{Inputs: tc.inputs, Answerers: rs, AllowOrigins: tc.allow}).Run(context.Background())
			opened := false
			for _, a := range f.Log {
				if (a.Op == "open" || a.Op == "new_tab") && a.Text == tc.answer {
					opened = true
				}
			}
			if tc.want == "" {
				if err != nil || !opened {
					t.Fatalf("err = %v, opened %v; want the URL opened", err, opened)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "refused to open") {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
			if opened {
				t.Errorf("the refused URL reached the driver")
			}
		})
	}
}
