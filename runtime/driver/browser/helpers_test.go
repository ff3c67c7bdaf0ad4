package browser

import (
	"context"
	"encoding/json"
	"errors"

	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// needChromium skips (or, under CI, fails) when no Chromium is installed.
func needChromium(tb testing.TB) {
	tb.Helper()
	if _, err := FindChromium(""); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("Chromium is required under CI: %v", err)
		}
		tb.Skipf("no Chromium on this machine (%v)", err)
	}
}

// shared is one browser for the tests that need no fresh one.
var shared struct {
	once sync.Once
	d    *Driver
	err  error
}

func sharedDriver(tb testing.TB) *Driver {
	tb.Helper()
	needChromium(tb)
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		shared.d, shared.err = Start(ctx, driver.Options{ActionTimeout: 5 * time.Second})
	})
	if shared.err != nil {
		tb.Fatalf("start: %v", shared.err)
	}
	return shared.d
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.d != nil {
		_ = shared.d.Close()
	}
	stopIsolated()
	os.Exit(code)
}

// site serves inline pages on 127.0.0.1; a path's page is registered with
// page(), and /log records what the page reports with report(...).
type site struct {
	*httptest.Server
	mux   *http.ServeMux
	mu    sync.Mutex
	pages map[string]string
	log   []string
}

func newSite(tb testing.TB) *site {
	mux := http.NewServeMux()
	s := &site{pages: map[string]string{}, mux: mux}
	mux.HandleFunc("/log", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.log = append(s.log, r.URL.Query().Get("m"))
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		body, ok := s.pages[r.URL.Path]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	})
	s.Server = httptest.NewUnstartedServer(mux)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s.Listener = l
	s.Start()
	tb.Cleanup(s.Close)
	return s
}

func (s *site) page(path, html string) string {
	s.mu.Lock()
	s.pages[path] = html
	s.mu.Unlock()
	return s.URL + path
}

func (s *site) handle(path string, h http.HandlerFunc) { s.mux.HandleFunc(path, h) }

func (s *site) logged() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

func do(tb testing.TB, d *Driver, a driver.Action) driver.Result {
	tb.Helper()
	res, err := d.Do(context.Background(), a)
	if err != nil {
		tb.Fatalf("%s: %v", a.Op, err)
	}
	return res
}

func open(tb testing.TB, d *Driver, url string) {
	tb.Helper()
	do(tb, d, driver.Action{Op: "open", Text: url})
}

func observe(tb testing.TB, d *Driver) *driver.Tree {
	tb.Helper()
	tree, err := d.Observe(context.Background())
	if err != nil {
		tb.Fatalf("observe: %v", err)
	}
	return tree
}

// one finds the single element of the tree that f accepts.
func one(tb testing.TB, tree *driver.Tree, what string, f func(e *driver.Element) bool) *driver.Element {
	tb.Helper()
	var got []*driver.Element
	for _, e := range tree.Elements {
		if f(e) {
			got = append(got, e)
		}
	}
	if len(got) != 1 {
		var b strings.Builder
		for _, e := range tree.Elements {
			fmt.Fprintf(&b, "  %s %s name=%q text=%q id=%q\n", e.Ref, e.Role, e.Name, e.Text, e.ID)
		}
		tb.Fatalf("%s: %d matches, want 1; tree:\n%s", what, len(got), b.String())
	}
	return got[0]
}

func byRoleName(role, name string) func(e *driver.Element) bool {
	return func(e *driver.Element) bool { return e.Role == role && e.Name == name }
}

func byID(id string) func(e *driver.Element) bool {
	return func(e *driver.Element) bool { return e.ID == id }
}

// find returns the single element Find returns for q that f accepts.
func find(tb testing.TB, d *Driver, q driver.Query, f func(e *driver.Element) bool) *driver.Element {
	tb.Helper()
	els, err := d.Find(context.Background(), q)
	if err != nil {
		tb.Fatalf("find %+v: %v", q, err)
	}
	return one(tb, &driver.Tree{Elements: els}, fmt.Sprintf("find %+v", q), f)
}

// eval reads a value back from the current page.
func eval(tb testing.TB, d *Driver, expr string) string {
	tb.Helper()
	d.life.Lock()
	defer d.life.Unlock()
	var res evalResult
	err := d.cur.call(context.Background(), "Runtime.evaluate", map[string]any{
		"expression": "String(" + expr + ")", "returnByValue": true,
	}, &res)
	if err == nil {
		err = res.err()
	}
	if err != nil {
		tb.Fatalf("eval %s: %v", expr, err)
	}
	var s string
	if err := jsonUnmarshalString(res.Result.Value, &s); err != nil {
		tb.Fatal(err)
	}
	return s
}

func jsonUnmarshalString(b []byte, s *string) error { return json.Unmarshal(b, s) }

func errorsIs(err, target error) bool { return errors.Is(err, target) }
