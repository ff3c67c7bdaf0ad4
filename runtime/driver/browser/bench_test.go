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
