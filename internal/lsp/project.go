package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// project is one .cogflow folder's knowledge base, loaded once and kept
// until its knowledge.hcl changes.
type project struct {
	kb    *kb.KB
	diags diag.List
}

// projectFor finds the .cogflow folder that applies to the file at path:
// the nearest one in the file's folder or above it, not above the
// workspace folder that holds the file (in a multi-root workspace each
// root has its own). It returns that project's knowledge base, or the
// default one and "" when there is no such folder.
func (s *Server) projectFor(path string) (*kb.KB, string) {
	dir := s.findProjectDir(path)
	if dir == "" {
		return s.defaultKB(), ""
	}
	s.mu.Lock()
	p := s.projects[dir]
	gen := s.projectsGen
	s.mu.Unlock()
	if p == nil {
		k, ds := cogflow.ProjectKB(dir)
		p = &project{kb: k, diags: ds}
		if onProjectLoaded != nil {
			onProjectLoaded(dir)
		}
		// A knowledge.hcl that changed while it was read may have been
		// read before the change: this analysis uses it (its result is
		// stale anyway, and dropped), but the cache must not keep it.
		s.mu.Lock()
		fresh := s.projectsGen == gen
		if fresh {
			s.projects[dir] = p
		}
		s.mu.Unlock()
		if fresh {
			s.publishFileDiags(cogflow.ProjectKBPath(dir), ds)
		}
	}
	if p.kb == nil {
		return s.defaultKB(), dir // broken: its errors are shown on knowledge.hcl
	}
	return p.kb, dir
}

// onProjectLoaded, when set (by tests), runs between reading a project's
// knowledge base and caching it: where a change of the file can race.
var onProjectLoaded func(dir string)

// defaultKB is the knowledge base shipped with cogflow, parsed once per
// session rather than at every keystroke; nothing changes it.
func (s *Server) defaultKB() *kb.KB {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.builtinKB == nil {
		s.builtinKB = kb.Default()
	}
	return s.builtinKB
}

func (s *Server) findProjectDir(path string) string {
	s.mu.Lock()
	roots := append([]string(nil), s.roots...)
	s.mu.Unlock()
	if !filepath.IsAbs(path) {
		return ""
	}
	// The deepest root holding the file bounds the search.
	stop := ""
	for _, r := range roots {
		if within(path, r) && len(r) > len(stop) {
			stop = r
		}
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		candidate := filepath.Join(dir, ".cogflow")
		if fi, err := os.Stat(candidate); err == nil && fi.IsDir() {
			return candidate
		}
		if dir == stop || filepath.Dir(dir) == dir {
			return ""
		}
	}
}

func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// publishFileDiags shows the diagnostics of a project file (knowledge.hcl,
// cogflow.hcl) on that file, whether or not it is open; none clears them.
func (s *Server) publishFileDiags(path string, ds diag.List) {
	text, _ := os.ReadFile(path)
	li := NewLineIndex(text)
	out := []Diagnostic{}
	uri := PathToURI(path)
	for _, d := range ds {
		if d.Range.Filename != "" && filepath.Clean(d.Range.Filename) != filepath.Clean(path) {
			continue
		}
		out = append(out, toProtocol(d, li, uri))
	}
	s.Notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: uri, Diagnostics: out})
}

// ProtocolDiagnostics are the document's diagnostics as the protocol's.
func (d *Document) ProtocolDiagnostics() []Diagnostic {
	out := make([]Diagnostic, 0, len(d.Diags))
	for _, x := range d.Diags {
		if x.Range.Filename != "" && x.Range.Filename != d.Path {
			continue
		}
		out = append(out, toProtocol(x, d.Lines, d.URI))
	}
	return out
}

// toProtocol converts one diagnostic. Its notes and its "did you mean"
// become related information at its own place, which editors list under
// the message; the suggestion also travels in Data for the code action
// that applies it.
func toProtocol(x *diag.Diagnostic, li *LineIndex, uri string) Diagnostic {
	sev := SeverityError
	if x.Severity == diag.Warning {
		sev = SeverityWarning
	}
	msg := x.Message
	if x.Path != "" {
		msg = x.Path + ": " + msg
	}
	rng := li.Range(x.Range)
	out := Diagnostic{Range: rng, Severity: sev, Source: "cogflow", Message: msg}
	loc := Location{URI: uri, Range: rng}
	if x.Suggestion != "" {
		out.RelatedInformation = append(out.RelatedInformation, DiagnosticRelatedInformation{Location: loc, Message: x.Suggestion})
		out.Data = map[string]string{"suggestion": x.Suggestion}
	}
	for _, n := range x.Notes {
		out.RelatedInformation = append(out.RelatedInformation, DiagnosticRelatedInformation{Location: loc, Message: n})
	}
	return out
}

func init() {
	register("workspace/didChangeWatchedFiles", didChangeWatchedFiles, nil)
}

// watchProjectFiles asks the client to tell the server when a project's
// knowledge.hcl or cogflow.hcl changes, when the client lets servers
// register watchers. It does not wait for the answer: the read loop that
// would deliver it is the caller.
func (s *Server) watchProjectFiles(ctx context.Context) {
	s.mu.Lock()
	dynamic := s.client.Workspace.DidChangeWatchedFiles.DynamicRegistration
	s.mu.Unlock()
	if !dynamic {
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		params := map[string]any{"registrations": []any{map[string]any{
			"id": "cogflow-project-files", "method": "workspace/didChangeWatchedFiles",
			"registerOptions": map[string]any{"watchers": []any{
				map[string]any{"globPattern": "**/.cogflow/knowledge.hcl"},
				map[string]any{"globPattern": "**/cogflow.hcl"},
			}},
		}}}
		if err := s.Call(s.ctx, "client/registerCapability", params, nil); err != nil {
			s.logf("cannot watch project files: %v", err)
		}
	}()
}

func didChangeWatchedFiles(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p struct {
		Changes []struct {
			URI string `json:"uri"`
		} `json:"changes"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	changed := false
	for _, c := range p.Changes {
		path, ok := uriToPath(c.URI)
		if !ok {
			continue
		}
		switch filepath.Base(path) {
		case cogflow.KnowledgeFileName:
			s.mu.Lock()
			delete(s.projects, filepath.Dir(path))
			s.projectsGen++
			s.mu.Unlock()
			changed = true
		case config.FileName:
			_, ds := config.Load(filepath.Dir(path))
			s.publishFileDiags(path, ds)
			changed = true
		}
	}
	if changed {
		// Dropped projects load again, and publish their knowledge.hcl's
		// diagnostics, when the open files are analyzed.
		s.reanalyzeAll()
	}
	return nil, nil
}
