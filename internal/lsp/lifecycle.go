package lsp

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
)

// clientCapabilities is the part of the client's capabilities the server
// reads.
type clientCapabilities struct {
	Workspace struct {
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
	} `json:"workspace"`
	TextDocument struct {
		Hover struct {
			ContentFormat []string `json:"contentFormat"`
		} `json:"hover"`
		Completion struct {
			CompletionItem struct {
				SnippetSupport bool `json:"snippetSupport"`
			} `json:"completionItem"`
		} `json:"completion"`
	} `json:"textDocument"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

type initializeParams struct {
	RootURI          string             `json:"rootUri"`
	RootPath         string             `json:"rootPath"`
	WorkspaceFolders []workspaceFolder  `json:"workspaceFolders"`
	Capabilities     clientCapabilities `json:"capabilities"`
}

// Text document sync kinds.
const syncIncremental = 2

func (s *Server) initialize(params json.RawMessage) (any, error) {
	var p initializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	var roots []string
	for _, f := range p.WorkspaceFolders {
		if path, ok := uriToPath(f.URI); ok {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 {
		if path, ok := uriToPath(p.RootURI); ok {
			roots = append(roots, path)
		} else if p.RootPath != "" {
			roots = append(roots, filepath.Clean(p.RootPath))
		}
	}
	caps := map[string]any{
		"textDocumentSync": map[string]any{"openClose": true, "change": syncIncremental, "save": map[string]any{"includeText": false}},
		"workspace": map[string]any{
			"workspaceFolders": map[string]any{"supported": true, "changeNotifications": true},
		},
	}
	for _, reg := range handlers {
		if reg.capability != nil {
			reg.capability(caps)
		}
	}
	s.mu.Lock()
	s.initialized = true
	s.client = p.Capabilities
	s.roots = roots
	s.mu.Unlock()
	return map[string]any{
		"capabilities": caps,
		"serverInfo":   map[string]any{"name": "cogflow", "version": s.opts.Version},
	}, nil
}

// ClientSupportsMarkdown reports whether hover text may be markdown.
func (s *Server) ClientSupportsMarkdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.client.TextDocument.Hover.ContentFormat {
		if f == "markdown" {
			return true
		}
	}
	return false
}

// ClientSupportsSnippets reports whether completion items may be snippets.
func (s *Server) ClientSupportsSnippets() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client.TextDocument.Completion.CompletionItem.SnippetSupport
}

func init() {
	register("workspace/didChangeWorkspaceFolders", didChangeWorkspaceFolders, nil)
}

func didChangeWorkspaceFolders(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p struct {
		Event struct {
			Added   []workspaceFolder `json:"added"`
			Removed []workspaceFolder `json:"removed"`
		} `json:"event"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	for _, f := range p.Event.Removed {
		if path, ok := uriToPath(f.URI); ok {
			for i, r := range s.roots {
				if r == path {
					s.roots = append(s.roots[:i], s.roots[i+1:]...)
					break
				}
			}
		}
	}
	for _, f := range p.Event.Added {
		if path, ok := uriToPath(f.URI); ok {
			s.roots = append(s.roots, path)
		}
	}
	s.mu.Unlock()
	s.reanalyzeAll() // a file's project folder may have changed
	return nil, nil
}

// uriToPath turns a file: URI into a path.
func uriToPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	path := u.Path
	if runtime.GOOS == "windows" {
		path = strings.TrimPrefix(path, "/")
	}
	// Clean: a folder's URI may end in "/", and the project search
	// compares folders as filepath.Dir writes them.
	return filepath.Clean(filepath.FromSlash(path)), true
}

// PathToURI turns an absolute path into a file: URI.
func PathToURI(path string) string {
	path = filepath.ToSlash(path)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return (&url.URL{Scheme: "file", Path: path}).String()
}
