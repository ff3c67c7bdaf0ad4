package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/browser"
)

// The fixed-step benchmark: 100 steps (50 type + click pairs) on the demo
// site's order form, run by cogflow and, in the same run, by a go-rod
// program using rod's element API. Each reports the median time of one
// step; the ratio of the two medians is the figure the interpreter issue
// asks for.

const fixedPairs = 50

func fixedWorkflow(base string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "task fixed {\n  driver browser\n  anchor name_box = textbox(name: \"Name\")\n  anchor news = checkbox(name: \"Newsletter\")\n  op0 = open(%q)\n", base+"/form")
	for i := 1; i <= fixedPairs; i++ {
		fmt.Fprintf(&b, "  t%d = type(name_box, \"name %d\")\n  c%d = click(news)\n", i, i, i)
	}
	b.WriteString("}\n")
	return b.String()
}

// stepTimes keeps the durations of the timed steps.
type stepTimes struct{ d []time.Duration }

func (s *stepTimes) Step(r runtime.StepReport) {
	if r.Op == "type" || r.Op == "click" {
		s.d = append(s.d, r.Duration)
	}
}
func (s *stepTimes) IterationDone([]runtime.LoopPos) {}
func (s *stepTimes) Interrupted(runtime.Position)    {}

func median(d []time.Duration) time.Duration {
	sorted := append([]time.Duration(nil), d...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	if len(sorted) == 0 {
		return 0
	}
	return sorted[len(sorted)/2]
}

func benchSite(b *testing.B) string {
	srv := httptest.NewServer(site.New().Handler())
	b.Cleanup(srv.Close)
	return srv.URL
}

func BenchmarkFixedStepsCogflow(b *testing.B) {
	if _, err := browser.FindChromium(""); err != nil {
		b.Skip(err)
	}
	base := benchSite(b)
	l, err := load(writeBenchFile(b, fixedWorkflow(base)))
	if err != nil || l.diags.HasErrors() {
		b.Fatal(err, l.diags.Err())
	}
	task := l.file.Decls[0].(*ast.Task)
	ctx := context.Background()
	drv, err := driver.Open(ctx, "browser", driver.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer drv.Close()
	times := &stepTimes{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := runtime.New(l.file, task, l.info, drv, runtime.Options{Observer: times}).Run(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(median(times.d).Microseconds())/1000, "ms/step-median")
}

func BenchmarkFixedStepsRodElementAPI(b *testing.B) {
	path, err := browser.FindChromium("")
	if err != nil {
		b.Skip(err)
	}
	base := benchSite(b)
	l := launcher.New().Bin(path).Headless(true).NoSandbox(true).
		Set("disable-background-networking").Set("disable-component-update").Set("disable-gpu")
	u, err := l.Launch()
	if err != nil {
		b.Fatal(err)
	}
	defer l.Kill()
	br := rod.New().ControlURL(u).MustConnect()
	defer br.Close()
	var d []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := br.MustPage(base + "/form").MustWaitLoad()
		for j := 1; j <= fixedPairs; j++ {
			start := time.Now()
			p.MustElement(`input[name="name"]`).MustSelectAllText().MustInput(fmt.Sprint("name ", j))
			d = append(d, time.Since(start))
			start = time.Now()
			p.MustElement("#newsletter").MustClick()
			d = append(d, time.Since(start))
		}
		p.MustClose()
	}
	b.StopTimer()
	b.ReportMetric(float64(median(d).Microseconds())/1000, "ms/step-median")
}

func writeBenchFile(b *testing.B, src string) string {
	f, err := os.CreateTemp(b.TempDir(), "fixed-*.cog")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(src); err != nil {
		b.Fatal(err)
	}
	return f.Name()
}
