// Command vsixcheck checks a packaged VS Code extension (.vsix) of cogflow:
// its manifest must name the cogflow language for .cog files, the
// source.cogflow grammar, and the server command (cogflow lsp), and the
// files the manifest names, and every package the client requires, must
// be in the archive. `make test-editors`
// runs it on the .vsix that `make vsix` builds, so that a packaging
// mistake (a file left out by .vscodeignore, a renamed setting) fails the
// tests instead of a user's install.
//
//	go run ./tools/vsixcheck bin/cogflow.vsix
package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: vsixcheck FILE.vsix")
		os.Exit(2)
	}
	summary, err := check(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "vsixcheck: %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	fmt.Printf("vsixcheck: %s: %s\n", os.Args[1], summary)
}

// manifest is the part of an extension's package.json that is checked.
type manifest struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Main    string `json:"main"`
	Engines struct {
		VSCode string `json:"vscode"`
	} `json:"engines"`
	Dependencies map[string]string `json:"dependencies"`
	Contributes  struct {
		Languages []language `json:"languages"`
		Grammars  []struct {
			Language  string `json:"language"`
			ScopeName string `json:"scopeName"`
			Path      string `json:"path"`
		} `json:"grammars"`
		Snippets []struct {
			Language string `json:"language"`
			Path     string `json:"path"`
		} `json:"snippets"`
		Configuration struct {
			Properties map[string]struct {
				Default json.RawMessage `json:"default"`
			} `json:"properties"`
		} `json:"configuration"`
	} `json:"contributes"`
}

// language is an entry of contributes.languages.
type language struct {
	ID            string   `json:"id"`
	Extensions    []string `json:"extensions"`
	Configuration string   `json:"configuration"`
}

// archive holds the files of a .vsix by their path under extension/.
type archive map[string]*zip.File

func (a archive) read(name string) ([]byte, error) {
	f, ok := a[path.Clean(strings.TrimPrefix(name, "./"))]
	if !ok {
		return nil, fmt.Errorf("%s is not in the archive", name)
	}
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, 16<<20))
}

// check opens the .vsix at file and returns a one-line summary of what it
// holds, or the first thing wrong with it.
func check(file string) (string, error) {
	z, err := zip.OpenReader(file)
	if err != nil {
		return "", err
	}
	defer z.Close()
	files := archive{}
	for _, f := range z.File {
		if rest, ok := strings.CutPrefix(f.Name, "extension/"); ok {
			files[rest] = f
		}
	}
	data, err := files.read("package.json")
	if err != nil {
		return "", err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("extension/package.json: %v", err)
	}
	if err := checkManifest(m, files); err != nil {
		return "", fmt.Errorf("extension/package.json: %v", err)
	}
	return fmt.Sprintf("%s %s for VS Code %s: language cogflow (.cog), grammar source.cogflow, server `cogflow lsp`, %d files",
		m.Name, m.Version, m.Engines.VSCode, len(files)), nil
}

func checkManifest(m manifest, files archive) error {
	c := m.Contributes
	i := slices.IndexFunc(c.Languages, func(l language) bool { return l.ID == "cogflow" })
	if i < 0 || !slices.Contains(c.Languages[i].Extensions, ".cog") {
		return fmt.Errorf("no language cogflow for .cog files in contributes.languages")
	}
	if _, err := files.read(c.Languages[i].Configuration); err != nil {
		return fmt.Errorf("the language configuration: %v", err)
	}
	if len(c.Grammars) != 1 || c.Grammars[0].Language != "cogflow" || c.Grammars[0].ScopeName != "source.cogflow" {
		return fmt.Errorf("contributes.grammars must be the one grammar source.cogflow of language cogflow, not %+v", c.Grammars)
	}
	g, err := files.read(c.Grammars[0].Path)
	if err != nil {
		return fmt.Errorf("the grammar: %v", err)
	}
	var grammar struct {
		ScopeName string `json:"scopeName"`
		Patterns  []any  `json:"patterns"`
	}
	if err := json.Unmarshal(g, &grammar); err != nil || grammar.ScopeName != "source.cogflow" || len(grammar.Patterns) == 0 {
		return fmt.Errorf("%s is not the source.cogflow grammar (%v)", c.Grammars[0].Path, err)
	}
	for _, s := range c.Snippets {
		if _, err := files.read(s.Path); err != nil {
			return fmt.Errorf("the snippets: %v", err)
		}
	}
	return checkServer(m, files)
}

// checkServer checks that the settings start `cogflow lsp` and that the
// client and its language client library are in the archive.
func checkServer(m manifest, files archive) error {
	props := m.Contributes.Configuration.Properties
	var command string
	var args []string
	if err := json.Unmarshal(props["cogflow.server.path"].Default, &command); err != nil || command != "cogflow" {
		return fmt.Errorf(`the setting cogflow.server.path must default to "cogflow"`)
	}
	if err := json.Unmarshal(props["cogflow.server.args"].Default, &args); err != nil || !slices.Equal(args, []string{"lsp"}) {
		return fmt.Errorf(`the setting cogflow.server.args must default to ["lsp"]`)
	}
	main, err := files.read(m.Main)
	if err != nil {
		return fmt.Errorf("the client (main): %v", err)
	}
	for _, want := range []string{"vscode-languageclient/node", "cogflow.server", "**/.cogflow/knowledge.hcl", "**/cogflow.hcl"} {
		if !strings.Contains(string(main), want) {
			return fmt.Errorf("the client %s does not mention %q", m.Main, want)
		}
	}
	lib, err := files.read("node_modules/vscode-languageclient/package.json")
	if err != nil {
		return fmt.Errorf("the language client library is not packaged: %v", err)
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(lib, &pkg); err != nil || pkg.Version != m.Dependencies["vscode-languageclient"] {
		return fmt.Errorf("vscode-languageclient %q is packaged, the manifest asks for %q", pkg.Version, m.Dependencies["vscode-languageclient"])
	}
	return checkDependencies(files)
}

// checkDependencies resolves, the way Node's require does, every
// dependency of the extension and of each package under node_modules in
// the archive: a package that .vscodeignore or a broken npm install left
// out would otherwise fail only when VS Code loads the client.
func checkDependencies(files archive) error {
	for name := range files {
		if name != "package.json" && !(strings.HasPrefix(name, "node_modules/") && isPackageManifest(name)) {
			continue
		}
		data, err := files.read(name)
		if err != nil {
			return err
		}
		var pkg struct {
			Dependencies map[string]string `json:"dependencies"`
		}
		if err := json.Unmarshal(data, &pkg); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		dir := path.Dir(name)
		for dep := range pkg.Dependencies {
			if !resolves(files, dir, dep) {
				return fmt.Errorf("%s depends on %s, which is not in the archive", name, dep)
			}
		}
	}
	return nil
}

// isPackageManifest reports whether name is the package.json of a package
// directly under a node_modules folder (node_modules/x/package.json or
// node_modules/@scope/x/package.json), not a file inside a package.
func isPackageManifest(name string) bool {
	dir, file := path.Split(name)
	if file != "package.json" {
		return false
	}
	parent := path.Dir(path.Clean(dir))
	if strings.HasPrefix(path.Base(parent), "@") {
		parent = path.Dir(parent)
	}
	return path.Base(parent) == "node_modules"
}

// resolves looks for dep in dir/node_modules and in each folder above.
func resolves(files archive, dir, dep string) bool {
	for {
		if _, ok := files[path.Join(dir, "node_modules", dep, "package.json")]; ok {
			return true
		}
		if dir == "." || dir == "/" {
			return false
		}
		dir = path.Dir(dir)
	}
}
