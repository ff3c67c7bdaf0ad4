package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// coreScript is how a MiniWoB++ task page loads core.js; the seeding
// script goes right after it, so it runs after seedrandom exists and
// before the page's own script and the episode's first random number.
const coreScript = `<script src="../core/core.js"></script>`

// rewardPath is where the page posts its reward when the task's own
// checker ends the episode.
const rewardPath = "/__cogflow_reward"

// Reward is what a page reports when core.endEpisode runs: the globals a
// MiniWoB++ harness reads, and the instruction the instance showed (so
// that a replay of a "same" seed can be told apart from a different
// instance).
type Reward struct {
	Done   bool    `json:"done"`
	Raw    float64 `json:"raw"`
	Reward float64 `json:"reward"`
	Reason string  `json:"reason"`
	Query  string  `json:"query"`
}

// server serves the task pages of one fixture folder, injecting the seed
// of the URL's query, and collects the rewards the pages report, by
// episode id (the `ep` query parameter).
type server struct {
	root string // the html/ folder
	srv  *http.Server
	ln   net.Listener

	mu      sync.Mutex
	rewards map[string]Reward
	waiters map[string][]chan struct{}
}

// seedScript is injected after core.js: it seeds Math.random, pins the
// episode time limit far away (tasks set their own, 10-20 s, from their
// inline scripts, which run later: a plain assignment would be undone),
// and wraps core.endEpisode to post the reward globals to the harness.
func seedScript(seed, ep string) string {
	s, _ := json.Marshal(seed)
	e, _ := json.Marshal(ep)
	return `<script>
Math.seedrandom(` + string(s) + `);
Object.defineProperty(core, 'EPISODE_MAX_TIME', {get: function () { return 3600000; }, set: function () {}});
(function () {
  var end = core.endEpisode;
  core.endEpisode = function () {
    var open = core.EP_TIMER !== null;
    var q = document.getElementById('query');
    var query = q ? q.textContent.replace(/\s+/g, ' ').trim() : '';
    end.apply(this, arguments);
    if (!open) return;
    fetch('` + rewardPath + `?ep=' + encodeURIComponent(` + string(e) + `), {method: 'POST', keepalive: true,
      body: JSON.stringify({done: WOB_DONE_GLOBAL, raw: WOB_RAW_REWARD_GLOBAL, reward: WOB_REWARD_GLOBAL,
        reason: String(WOB_REWARD_REASON), query: query})});
  };
})();
</script>`
}

// inject puts the seed script after the page's core.js tag; a page
// without one is served unchanged and reported.
func inject(page []byte, seed, ep string) ([]byte, error) {
	i := bytes.Index(page, []byte(coreScript))
	if i < 0 {
		return page, fmt.Errorf("the page does not load %s", coreScript)
	}
	i += len(coreScript)
	out := append([]byte{}, page[:i]...)
	out = append(out, seedScript(seed, ep)...)
	return append(out, page[i:]...), nil
}

// startServer listens on 127.0.0.1 on a free port.
func startServer(root string) (*server, error) {
	if _, err := os.Stat(filepath.Join(root, "core", "core.js")); err != nil {
		return nil, fmt.Errorf("no MiniWoB++ pages in %s: %w", root, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &server{root: root, ln: ln, rewards: map[string]Reward{}, waiters: map[string][]chan struct{}{}}
	mux := http.NewServeMux()
	mux.HandleFunc(rewardPath, s.postReward)
	mux.HandleFunc("/", s.serveFile)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// base is the server's URL, without a trailing slash.
func (s *server) base() string { return "http://" + s.ln.Addr().String() }

// taskURL is the page of a task for one seed and one episode id.
func (s *server) taskURL(task, seed, ep string) string {
	return fmt.Sprintf("%s/miniwob/%s.html?seed=%s&ep=%s", s.base(), task, seed, ep)
}

func (s *server) close() { _ = s.srv.Close() }

func (s *server) serveFile(w http.ResponseWriter, r *http.Request) {
	seed, ep := r.URL.Query().Get("seed"), r.URL.Query().Get("ep")
	if !strings.HasSuffix(r.URL.Path, ".html") || seed == "" {
		http.FileServer(http.Dir(s.root)).ServeHTTP(w, r)
		return
	}
	name := filepath.Join(s.root, filepath.FromSlash(filepath.Clean("/"+r.URL.Path)))
	page, err := os.ReadFile(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	page, err = inject(page, seed, ep)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(page)
}

func (s *server) postReward(w http.ResponseWriter, r *http.Request) {
	ep := r.URL.Query().Get("ep")
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	var rw Reward
	if err == nil {
		err = json.Unmarshal(body, &rw)
	}
	if err != nil || ep == "" {
		http.Error(w, "bad reward", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	if _, seen := s.rewards[ep]; !seen { // the first end of an episode counts
		s.rewards[ep] = rw
	}
	for _, c := range s.waiters[ep] {
		close(c)
	}
	delete(s.waiters, ep)
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// reward waits up to d for the episode's reward; ok is false when the
// episode never ended.
func (s *server) reward(ep string, d time.Duration) (Reward, bool) {
	s.mu.Lock()
	if rw, ok := s.rewards[ep]; ok {
		s.mu.Unlock()
		return rw, true
	}
	c := make(chan struct{})
	s.waiters[ep] = append(s.waiters[ep], c)
	s.mu.Unlock()
	select {
	case <-c:
	case <-time.After(d):
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rw, ok := s.rewards[ep]
	return rw, ok
}
