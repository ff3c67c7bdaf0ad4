package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// server serves the fixture pages on 127.0.0.1 and collects the effect
// reports the pages send (see reporter).
type server struct {
	ln   net.Listener
	port string
	mu   sync.Mutex
	seen []snapshot
}

// snapshot is one report of a page's state: what the effect checks read.
type snapshot struct {
	Href     string            `json:"href"`
	W        float64           `json:"w"`
	H        float64           `json:"h"`
	SX       float64           `json:"sx"`
	SY       float64           `json:"sy"`
	Clicks   []string          `json:"clicks"`
	Buttons  []float64         `json:"bc"`
	Fields   map[string]string `json:"fields"`
	Texts    []string          `json:"texts"`
	Active   string            `json:"active"`
	Custom   int               `json:"ce"`
	Overflow *float64          `json:"overflow"`
}

// reporter is appended to every served page: it reports the page's state
// to the harness whenever it changes, by beacon, so the effect is known even
// after cogflow closes its browser context. It only listens (capture phase)
// and reads; it changes nothing on the page.
const reporter = `<script>(() => {
  const clicks = [];
  const snap = () => {
    const s = { href: location.href, w: innerWidth, h: innerHeight, sx: scrollX, sy: scrollY, clicks,
      bc: window.buttonClicks || null, fields: {}, texts: [], ce: document.querySelectorAll('custom-element').length };
    const a = document.activeElement;
    s.active = a && a !== document.body ? (a.id || a.localName) : '';
    for (const el of document.querySelectorAll('input,select,textarea'))
      s.fields[el.id || el.name || el.localName] = el.type === 'checkbox' || el.type === 'radio' ? String(el.checked) : el.value;
    for (const el of document.querySelectorAll('button')) s.texts.push(el.textContent.trim());
    const o = document.getElementById('overflow');
    if (o) s.overflow = o.scrollTop;
    return JSON.stringify(s);
  };
  let last = '';
  const report = () => { try { const s = snap(); if (s !== last) { last = s; navigator.sendBeacon('http://127.0.0.1:PORT/__effect', s); } } catch (e) {} };
  addEventListener('click', (e) => {
    const t = e.composedPath()[0];
    clicks.push((t.localName || '?') + (t.id ? '#' + t.id : '') + (typeof t.className === 'string' && t.className ? '.' + t.className : ''));
    setTimeout(report, 0);
  }, true);
  for (const ev of ['input', 'change', 'scroll', 'pointerover', 'mouseup', 'focusin', 'load', 'pagehide'])
    addEventListener(ev, () => setTimeout(report, 0), true);
  // DOM changes are reported at once: a run may end (and its browser
  // context close) right after the step that caused them.
  new MutationObserver(() => setTimeout(report, 0)).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  setInterval(report, 100);
  report();
})();</script>
`

func serve(pages string) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &server{ln: ln}
	_, s.port, _ = net.SplitHostPort(ln.Addr().String())
	mux := http.NewServeMux()
	mux.HandleFunc("/__effect", func(w http.ResponseWriter, r *http.Request) {
		var sn snapshot
		b, _ := io.ReadAll(r.Body)
		if json.Unmarshal(b, &sn) == nil {
			s.mu.Lock()
			s.seen = append(s.seen, sn)
			s.mu.Unlock()
		}
		w.Header().Set("Access-Control-Allow-Origin", "*")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		p := filepath.Join(pages, filepath.FromSlash(strings.TrimPrefix(filepath.Clean("/"+r.URL.Path), "/")))
		if !strings.HasSuffix(p, ".html") {
			http.ServeFile(w, r, p)
			return
		}
		b, err := os.ReadFile(p)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		page := string(b)
		// The pages were written for a server on "localhost" and put their
		// iframes on the second origin by replacing that name; here pages
		// are served on 127.0.0.1, so the replacement names it instead.
		page = strings.ReplaceAll(page, "replace('localhost', 'oopifdomain')", "replace('127.0.0.1', 'oopifdomain')")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page+strings.ReplaceAll(reporter, "PORT", s.port))
	})
	go func() { _ = http.Serve(ln, mux) }()
	return s, nil
}

func (s *server) close() { _ = s.ln.Close() }

func (s *server) reset() {
	s.mu.Lock()
	s.seen = nil
	s.mu.Unlock()
}

func (s *server) snapshots() []snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]snapshot(nil), s.seen...)
}
