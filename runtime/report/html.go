package report

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
)

// page.html is the report's one template; page.css and page.js are put
// inline. Its Content-Security-Policy (default-src 'none') allows exactly
// that style and that script, by their SHA-256, and data: images: the file
// opens anywhere, offline, never reaches out, and a script smuggled into
// a value could not run even if escaping failed.
var (
	//go:embed page.html
	pageHTML string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// csp is the page's Content-Security-Policy. default-src does not cover
// base-uri and form-action: they are closed on their own.
var csp = "default-src 'none'; img-src data:; style-src " + cspHash(pageCSS) + "; script-src " + cspHash(pageJS) +
	"; base-uri 'none'; form-action 'none'"

func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"dur":    func(d journal.Duration) string { return d.String() },
	"usd":    func(f float64) string { return fmt.Sprintf("$%.4f", f) },
	"utc":    func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
	"source": sourceLabel,
}).Parse(pageHTML))

// MaxScreenshot is the largest screenshot file put inline; a larger one is
// named, not embedded, so that a report stays openable.
const MaxScreenshot = 8 << 20

// WriteHTML writes suites as one self-contained HTML page: per case, the
// run's facts, its failure with the step's position, every step with its
// outcome, duration, resolved arguments and where each came from, the
// model calls with tokens and cost, and the screenshots inline as data:
// URIs. Every text is escaped by html/template.
func WriteHTML(w io.Writer, suites []Suite) error {
	v := pageView{Generated: time.Now(), CSP: csp, CSS: template.CSS(pageCSS), JS: template.JS(pageJS)}
	for _, s := range suites {
		sv := suiteView{Suite: s, Counts: s.Counts()}
		for i, c := range s.Cases {
			sv.Cases = append(sv.Cases, caseView(s, i, c))
		}
		v.Suites = append(v.Suites, sv)
	}
	if err := page.Execute(w, v); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

type pageView struct {
	Generated time.Time
	CSP       string
	CSS       template.CSS // page.css, as the CSP's hash allows it
	JS        template.JS  // page.js, likewise
	Suites    []suiteView
}

type suiteView struct {
	Suite
	Counts map[Status]int
	Cases  []caseHTML
}

type caseHTML struct {
	Case
	Anchor  string
	Summary journal.Summary
	Inputs  []kv
	Steps   []stepHTML
	Calls   []stepHTML // the steps that asked a model
	Tokens  journal.Tokens
}

type kv struct{ K, V string }

type stepHTML struct {
	journal.StepEvent
	Loop string
	dir  string // the run's folder, where its screenshots are
}

// Image is the step's screenshot as a data: URI, "" if it has none. It is
// read while the page is written, so that a report of many runs holds one
// screenshot in memory at a time, not all of them.
func (s stepHTML) Image() template.URL {
	u, _ := screenshot(s.dir, s.StepEvent)
	return u
}

// ImageNote says why a screenshot is missing or not inline.
func (s stepHTML) ImageNote() string {
	_, note := screenshot(s.dir, s.StepEvent)
	return note
}

func caseView(s Suite, i int, c Case) caseHTML {
	v := caseHTML{Case: c, Anchor: fmt.Sprintf("case-%s-%d", s.ID, i)}
	if c.Run == nil {
		return v
	}
	v.Summary = c.Run.Summarize()
	v.Tokens = v.Summary.Tokens
	for _, k := range slices.Sorted(maps.Keys(c.Run.Start.Inputs)) {
		v.Inputs = append(v.Inputs, kv{k, c.Run.Start.Inputs[k]})
	}
	for _, ev := range c.Run.Steps {
		st := stepHTML{StepEvent: ev, Loop: loopText(ev.Loop), dir: c.Run.Dir}
		v.Steps = append(v.Steps, st)
		if ev.Tokens != nil {
			v.Calls = append(v.Calls, st)
		}
	}
	return v
}

// screenshot reads a step's screenshot as a data: URI. Only a plain file
// name inside the run's folder is read, and only PNG or JPEG bytes become
// an image.
func screenshot(dir string, ev journal.StepEvent) (template.URL, string) {
	if ev.Screenshot == "" {
		return "", ev.NoScreenshot
	}
	if ev.Screenshot != filepath.Base(ev.Screenshot) || strings.HasPrefix(ev.Screenshot, ".") {
		return "", "screenshot name " + ev.Screenshot + " is not a file of the run"
	}
	path := filepath.Join(dir, ev.Screenshot)
	st, err := os.Stat(path)
	if err != nil {
		return "", "screenshot " + ev.Screenshot + " is missing"
	}
	if st.Size() > MaxScreenshot {
		return "", fmt.Sprintf("screenshot %s is too large to inline (%d bytes)", ev.Screenshot, st.Size())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "screenshot " + ev.Screenshot + " cannot be read"
	}
	mime := http.DetectContentType(b)
	if mime != "image/png" && mime != "image/jpeg" {
		return "", "screenshot " + ev.Screenshot + " is not an image"
	}
	// A data: URI of a sniffed image, built here, is a safe URL.
	return template.URL("data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)), ""
}

func loopText(loop []journal.LoopPos) string {
	parts := make([]string, len(loop))
	for i, p := range loop {
		parts[i] = fmt.Sprintf("%s[%d]", p.Var, p.Index)
		if p.Key != "" {
			parts[i] += " " + p.Key
		}
	}
	return strings.Join(parts, " / ")
}

// sourceLabel names where a value came from in the words of the report:
// literal, input, structure, synthesis, cache, model, person.
func sourceLabel(s journal.Source) string {
	switch s {
	case journal.SourceStep, journal.SourceStructural:
		return "structure"
	case journal.SourceFunction:
		return "synthesis"
	case journal.SourceLLM:
		return "model"
	case journal.SourceAsk:
		return "person"
	}
	return string(s) // literal, input, cache; "" when the journal has none
}
