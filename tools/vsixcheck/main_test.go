package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildVSIX writes a .vsix holding the extension's real files from
// editor-support/vscode, with edit applied to each file's text first, and
// the language client's package.json at version 9.0.1.
func buildVSIX(t *testing.T, edit func(name, text string) string) string {
	t.Helper()
	src := filepath.Join("..", "..", "editor-support", "vscode")
	names := []string{"package.json", "extension.js", "language-configuration.json",
		"syntaxes/cogflow.tmLanguage.json", "snippets/cogflow.code-snippets"}
	file := filepath.Join(t.TempDir(), "cogflow.vsix")
	out, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(out)
	put := func(name, text string) {
		if text = edit(name, text); text == "" {
			return // the edit left the file out
		}
		w, err := z.Create("extension/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		put(n, string(data))
	}
	put("node_modules/vscode-languageclient/package.json", `{"name": "vscode-languageclient", "version": "9.0.1"}`)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestCheck(t *testing.T) {
	replace := func(file, old, new string) func(name, text string) string {
		return func(name, text string) string {
			if name != file {
				return text
			}
			if !strings.Contains(text, old) {
				t.Fatalf("%s does not contain %q: fix the test", file, old)
			}
			return strings.Replace(text, old, new, 1)
		}
	}
	tests := []struct {
		name string
		edit func(name, text string) string
		want string // "" for a good archive, else part of the error
	}{
		{"the extension as it is", func(_, text string) string { return text }, ""},
		{"no grammar file", func(name, text string) string {
			if name == "syntaxes/cogflow.tmLanguage.json" {
				return ""
			}
			return text
		}, "the grammar: ./syntaxes/cogflow.tmLanguage.json is not in the archive"},
		{"another language id", replace("package.json", `"id": "cogflow"`, `"id": "cog"`), "no language cogflow"},
		{"another scope name", replace("syntaxes/cogflow.tmLanguage.json", `"scopeName": "source.cogflow"`, `"scopeName": "source.cog"`), "is not the source.cogflow grammar"},
		{"the server without lsp", replace("package.json", `"lsp"`, `"serve"`), `cogflow.server.args must default to ["lsp"]`},
		{"a client without watchers", replace("extension.js", "'**/cogflow.hcl'", "'cogflow.hcl'"), `does not mention "**/cogflow.hcl"`},
		{"a dependency of the client left out", replace("node_modules/vscode-languageclient/package.json", `"version": "9.0.1"`,
			`"version": "9.0.1", "dependencies": {"vscode-languageserver-protocol": "3.17.5"}`),
			"node_modules/vscode-languageclient/package.json depends on vscode-languageserver-protocol, which is not in the archive"},
		{"a dependency of the extension left out", replace("package.json", `"vscode-languageclient": "9.0.1"`,
			`"vscode-languageclient": "9.0.1", "semver": "7.6.0"`), "package.json depends on semver, which is not in the archive"},
		{"another client version", replace("package.json", `"vscode-languageclient": "9.0.1"`, `"vscode-languageclient": "9.0.0"`), `"9.0.1" is packaged, the manifest asks for "9.0.0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			summary, err := check(buildVSIX(t, tt.edit))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("a good archive fails: %v", err)
			case tt.want == "" && !strings.Contains(summary, "server `cogflow lsp`"):
				t.Fatalf("summary %q", summary)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
