package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

const benchPage = `<!doctype html><title>Bench</title><form onsubmit="return false">
<label for=q>Query</label><input id=q value="">
<button id=go type=button onclick="document.getElementById('out').textContent = document.getElementById('q').value">Go</button>
</form><p id=out></p>`

// BenchmarkTypeClick is a fixed type+click step through the driver: Find
// the field and the button, type, click (each action waits for the page to
// settle).
func BenchmarkTypeClick(b *testing.B) {
	d := sharedDriver(b)
	s := newSite(b)
	open(b, d, s.page("/bench", benchPage))
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q, err := d.Find(ctx, driver.Query{ID: "q"})
		if err != nil || len(q) != 1 {
			b.Fatal(q, err)
		}
		if _, err := d.Do(ctx, driver.Action{Op: "type", Target: q[0], Text: fmt.Sprint("v", i)}); err != nil {
			b.Fatal(err)
		}
		g, err := d.Find(ctx, driver.Query{ID: "go"})
		if err != nil || len(g) != 1 {
			b.Fatal(g, err)
		}
		if _, err := d.Do(ctx, driver.Action{Op: "click", Target: g[0]}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if got := eval(b, d, "document.getElementById('out').textContent"); got != fmt.Sprint("v", b.N-1) {
		b.Fatalf("out %q", got)
	}
}

// BenchmarkRodElementAPI does the same with go-rod's element API on the
// same browser, for comparison.
func BenchmarkRodElementAPI(b *testing.B) {
	d := sharedDriver(b)
	s := newSite(b)
	open(b, d, s.page("/bench", benchPage))
	p := d.cur.p
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.MustElement("#q").MustSelectAllText().MustInput(fmt.Sprint("v", i))
		p.MustElement("#go").MustClick()
	}
	b.StopTimer()
	if got := eval(b, d, "document.getElementById('out').textContent"); got != fmt.Sprint("v", b.N-1) {
		b.Fatalf("out %q", got)
	}
}

// BenchmarkObserve5000 observes a generated page of 5,000 elements.
func BenchmarkObserve5000(b *testing.B) {
	d := sharedDriver(b)
	s := newSite(b)
	var page strings.Builder
	page.WriteString("<!doctype html><title>Big</title><h1>Big</h1><ul class=items>")
	for i := 0; i < 1250; i++ { // 4 elements an item
		fmt.Fprintf(&page, `<li class=item><a href="/i/%d">Item %d</a> <span class=price>%d €</span> <button>Buy</button></li>`, i, i, i)
	}
	page.WriteString("</ul>")
	open(b, d, s.page("/big", page.String()))
	ctx := context.Background()
	tree, err := d.Observe(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if len(tree.Elements) < 5000 {
		b.Fatalf("%d elements", len(tree.Elements))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := d.Observe(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFieldSubmit searches with a GET form three ways, from the
// form's address to the results page: "ui" opens the form, types and
// clicks the submit button; "api" opens it and uses set_value and
// submit_form; "url" opens the results address (open_with_query). Each
// checks where it ended. Interleave runs of -count 1 to compare them
// (notes/arch19/browser.md).
func BenchmarkFieldSubmit(b *testing.B) {
	d := sharedDriver(b)
	s := newSite(b)
	s.page("/done", "<!doctype html><title>Done</title><p>done</p>")
	form := s.page("/form", `<!doctype html><title>Form</title><form action="/done">
<label for=q>Query</label><input id=q name=q><button id=go>Search</button></form>`)
	ctx := context.Background()
	for _, mode := range []string{"ui", "api", "url"} {
		b.Run(mode, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				text := fmt.Sprint("mount kenya ", i)
				want := s.URL + "/done?q=" + strings.ReplaceAll(text, " ", "+")
				if mode == "url" {
					open(b, d, want)
					if w := d.window(ctx, d.cur); w.URL != want {
						b.Fatalf("at %s, want %s", w.URL, want)
					}
					continue
				}
				open(b, d, form)
				q, err := d.Find(ctx, driver.Query{ID: "q"})
				if err != nil || len(q) != 1 {
					b.Fatal(q, err)
				}
				var res driver.Result
				if mode == "ui" {
					do(b, d, driver.Action{Op: "type", Target: q[0], Text: text})
					g, err := d.Find(ctx, driver.Query{ID: "go"})
					if err != nil || len(g) != 1 {
						b.Fatal(g, err)
					}
					do(b, d, driver.Action{Op: "click", Target: g[0]})
					res.Window = d.window(ctx, d.cur)
				} else {
					do(b, d, driver.Action{Op: "set_value", Target: q[0], Text: text})
					res = do(b, d, driver.Action{Op: "submit_form", Target: q[0]})
				}
				if res.Window == nil || res.Window.URL != want {
					b.Fatalf("%s: at %+v, want %s", mode, res.Window, want)
				}
			}
		})
	}
}
